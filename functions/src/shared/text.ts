// Pure: text that can be stored. A lone UTF-16 surrogate cannot be (Firestore
// refuses the whole write) and is never text anyone meant.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const isWellFormedText = (text: string): boolean => !LONE_SURROGATE.test(text);
