/** A real SMTP server (npm smtp-server) started inside a test, collecting what it receives. */
import type { Readable } from "node:stream";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The raw message (headers and body) as received. */
  raw: string;
}

export interface TestSmtp {
  url: string;
  messages: ReceivedMail[];
  close(): Promise<void>;
}

/**
 * Starts an SMTP server on 127.0.0.1 with a free port. With `rejectRecipients`, every RCPT TO is
 * refused (550), so sending fails the way a misconfigured relay does.
 */
export async function startTestSmtp(
  opts: { rejectRecipients?: boolean } = {},
): Promise<TestSmtp> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (opts.rejectRecipients) return callback(new Error("Mailbox unavailable"));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Uint8Array[] = [];
      const readable = stream as unknown as Readable;
      readable.on("data", (chunk: Uint8Array) => chunks.push(chunk));
      readable.on("end", () => {
        const raw = new TextDecoder().decode(concat(chunks));
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        messages.push({ from, to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.server.address();
  if (!address || typeof address === "string") throw new Error("SMTP server has no port");
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}
