import type { Response } from 'express';

// Writing a streamed reply (a file) piece by piece: what every export does.

/** Writes `text`, waiting while the connection's buffer is full; false once the client has gone. */
export async function send(res: Response, text: string | Uint8Array, gone: () => boolean): Promise<boolean> {
  if (gone()) return false;
  if (text.length > 0 && !res.write(text)) {
    await new Promise<void>((resolve) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    });
  }
  return !gone();
}

/** Whether the client has gone away (the connection closed), from now on. */
export function goneWatch(res: Response): () => boolean {
  let closed = false;
  res.once('close', () => {
    closed = true;
  });
  return () => closed || res.destroyed;
}
