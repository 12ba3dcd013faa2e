/**
 * An SMTP server started inside a test (the edge of the world: the app's real nodemailer client
 * talks SMTP to it over TCP), collecting what it receives. It speaks the part of SMTP a relay
 * without TLS or AUTH speaks: EHLO/HELO, MAIL FROM, RCPT TO, DATA (dot-unstuffed), RSET, NOOP,
 * QUIT. Written on `Deno.listen` rather than npm `smtp-server`, whose sockets outlived `close()`
 * on Deno 2.5 (Deno Deploy's runtime, on which `.ci/run` also runs tests/api).
 */

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

/** The address between `<` and `>` of a MAIL FROM or RCPT TO argument. */
function addressOf(line: string): string {
  return line.match(/<([^>]*)>/)?.[1] ?? line.split(":").slice(1).join(":").trim();
}

/** Serves one SMTP session on `conn` until the client quits or leaves. */
async function session(
  conn: Deno.Conn,
  messages: ReceivedMail[],
  rejectRecipients: boolean,
): Promise<void> {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const reply = (text: string) => conn.write(encoder.encode(`${text}\r\n`));
  let envelope: { from: string; to: string[] } = { from: "", to: [] };
  let data: string[] | null = null;
  let pending = "";
  const buffer = new Uint8Array(64 * 1024);
  await reply("220 localhost ESMTP test server");
  while (true) {
    const n = await conn.read(buffer);
    if (n === null) return;
    pending += decoder.decode(buffer.subarray(0, n), { stream: true });
    let end: number;
    while ((end = pending.indexOf("\r\n")) >= 0) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 2);
      if (data) {
        if (line !== ".") {
          data.push(line.startsWith("..") ? line.slice(1) : line);
          continue;
        }
        messages.push({ ...envelope, raw: data.join("\r\n") + "\r\n" });
        envelope = { from: "", to: [] };
        data = null;
        await reply("250 OK: queued");
        continue;
      }
      const verb = line.slice(0, 4).toUpperCase();
      if (verb === "EHLO" || verb === "HELO") await reply("250 localhost");
      else if (verb === "MAIL") {
        envelope = { from: addressOf(line), to: [] };
        await reply("250 Accepted");
      } else if (verb === "RCPT") {
        if (rejectRecipients) await reply("550 Mailbox unavailable");
        else {
          envelope.to.push(addressOf(line));
          await reply("250 Accepted");
        }
      } else if (verb === "DATA") {
        if (envelope.to.length === 0) await reply("503 No valid recipients");
        else {
          data = [];
          await reply("354 End data with <CR><LF>.<CR><LF>");
        }
      } else if (verb === "QUIT") {
        await reply("221 Bye");
        return;
      } else if (verb === "RSET") {
        envelope = { from: "", to: [] };
        await reply("250 OK");
      } else if (verb === "NOOP") await reply("250 OK");
      else await reply("502 Command not implemented");
    }
  }
}

/**
 * Starts an SMTP server on 127.0.0.1 with a free port. With `rejectRecipients`, every RCPT TO is
 * refused (550), so sending fails the way a misconfigured relay does.
 */
export function startTestSmtp(
  opts: { rejectRecipients?: boolean } = {},
): Promise<TestSmtp> {
  const messages: ReceivedMail[] = [];
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.Conn>();
  const sessions = new Set<Promise<void>>();
  const accepting = (async () => {
    for await (const conn of listener) {
      conns.add(conn);
      const served = session(conn, messages, opts.rejectRecipients ?? false)
        .catch(() => {}) // the client left mid-session
        .finally(() => {
          conns.delete(conn);
          sessions.delete(served);
          try {
            conn.close();
          } catch {
            // already closed
          }
        });
      sessions.add(served);
    }
  })();
  const { port } = listener.addr as Deno.NetAddr;
  return Promise.resolve({
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async close() {
      listener.close();
      await accepting.catch(() => {});
      for (const conn of conns) {
        try {
          conn.close();
        } catch {
          // already closed
        }
      }
      await Promise.all(sessions);
    },
  });
}
