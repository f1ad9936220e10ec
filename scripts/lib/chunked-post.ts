// POSTs a large body with Transfer-Encoding: chunked (no Content-Length to refuse it by) and stops sending
// as soon as the server answers. Used to check that a route caps a body while it streams: the answer must
// come (413) long before the whole body was sent. Shared by scripts/attack.ts and the tests.
import { request as httpRequest } from "node:http";

export type ChunkedAnswer = { status: number; text: string; bytesSent: number };

type ChunkedOptions = { headers?: Record<string, string>; contentLength?: string; timeoutMs?: number };

/**
 * A server that answers early and closes while the client still sends can make the client's next write fail
 * (EPIPE / ECONNRESET) before the answer is read: Node destroys the socket on a failed write and the answer
 * waiting in it is lost. That proves the body was cut short but not how. Writes therefore go one chunk per
 * event-loop turn (the answer is read between them), and a reset that still wins the race is retried, at most
 * RESET_ATTEMPTS times in all.
 */
const RESET_ATTEMPTS = 4;

export async function postChunked(url: string, totalBytes: number, opts: ChunkedOptions = {}): Promise<ChunkedAnswer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await postChunkedOnce(url, totalBytes, opts);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== "EPIPE" && code !== "ECONNRESET") || attempt >= RESET_ATTEMPTS) throw error;
    }
  }
}

function postChunkedOnce(url: string, totalBytes: number, opts: ChunkedOptions): Promise<ChunkedAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", ...opts.headers };
    if (opts.contentLength) headers["content-length"] = opts.contentLength;
    // agent: false — a fresh connection each time, never one the server is still draining.
    const req = httpRequest(url, { method: "POST", headers, agent: false, timeout: opts.timeoutMs ?? 30_000 });
    let bytesSent = 0;
    let answered = false;
    const chunk = Buffer.alloc(16 * 1024, "a");
    req.on("response", (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on("data", (c: Buffer) => parts.push(c));
      res.on("end", () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString("utf8"), bytesSent });
      });
    });
    req.on("timeout", () => req.destroy(new Error(`no answer from ${url} within the time-out`)));
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    // One chunk per turn: after each write completes, setImmediate runs once the poll phase has read whatever
    // the server sent, so an early answer is seen before the next write can hit the closed socket.
    const pump = () => {
      if (answered) return;
      if (bytesSent >= totalBytes) return void req.end();
      bytesSent += chunk.byteLength;
      req.write(chunk, (error) => {
        if (!error) setImmediate(pump);
      });
    };
    pump();
  });
}
