/**
 * `$fresh/compress.ts`: the content coding the handler applies to every answer, for app code
 * that keeps answers of its own (the render cache): a body compressed once per coding and
 * served per `Accept-Encoding` with ETags and 304s. This core's addition to Fresh 1.x's API.
 * @example
 * const file = encodeFile(bytes, "text/html; charset=utf-8", etag);
 * return serveEncoded(req, file, headers);
 */
export {
  type EncodedFile,
  isCompressible,
  MIN_COMPRESS_BYTES,
  serveEncoded,
} from "./src/compress.ts";
