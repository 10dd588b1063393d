// Front door of people/: people named in replies: one batched profile read per page.
// What other folders may use; nothing else of this folder is imported from outside.
export { namesOf } from './names';
export { listedNameFields, nameFields, nameSchemaFields } from './personName';
export type { PersonName } from './personName';
