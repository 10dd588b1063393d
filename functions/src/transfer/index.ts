// Front door of transfer/: files into and out of a request: a multipart upload, its CSV records, a streamed download.
// What other folders may use; nothing else of this folder is imported from outside.
export { csvRecords, readCsvRecords } from './csvUpload';
export { goneWatch, send } from './streamWrite';
export { receiveFile, streamBytes, uploadError } from './upload';
export type { ReceivedFile, UploadedFile } from './upload';
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadUpload = () => import('./upload');
