/** Words as the service counts them for an essay's max_words: runs of characters between white space. */
export const wordCount = (text: string): number => text.split(/\s+/u).filter((word) => word.length > 0).length;
