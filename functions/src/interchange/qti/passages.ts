import type { MediaFile, ParsedItem, QuestionDraft } from '../model';
import { localName, type XmlElement } from '../xml';
import { attr, kid, kids, qtiName } from './elements';
import {
  childrenHtml,
  type HtmlContext,
  type PackageFiles,
  resolvePackagePath,
  wrappedContent,
  wrapperAmong,
} from './html';

// Pure: passages in QTI. A passage (QTI 3 `qti-assessment-stimulus`, QTI 2.2 `assessmentStimulus`,
// or a TAO passage: a bare `div` in the QTI namespace) is text and media several items share; an
// item names it by `qti-assessment-stimulus-ref`. The bank holds it as a description, and each
// item that names it as a question whose passage_id is that description (linked by the import:
// QuestionDraft's passage_key and passage_ref).

/** A manifest's resource that is a passage file. */
export const STIMULUS_RESOURCE = /^imsqti_stimulus_xmlv(2p2|3p0)$/i;

/** Whether a file's root is a passage: a stimulus, or (TAO) a div in a QTI namespace. */
export function isPassageRoot(root: XmlElement): boolean {
  if (qtiName(root) === 'assessmentStimulus') return true;
  const namespace = root.attrs.xmlns ?? '';
  return localName(root) === 'div' && /imsglobal\.org\/xsd\/imsqti/i.test(namespace);
}

/** Where the passages an item names are, in the package: the paths its stimulus references lead to (or why one cannot be followed). */
export function stimulusRefs(item: XmlElement, itemPath: string): Array<{ href: string; path: string | null }> {
  return kids(item, 'assessmentStimulusRef').map((ref) => {
    const href = attr(ref, 'href')?.trim() ?? '';
    return { href, path: href === '' ? null : resolvePackagePath(itemPath, href) };
  });
}

/** A passage file read as a description that items may name (its key: its path in the package). */
export function passageItem(
  root: XmlElement,
  path: string,
  pkg: PackageFiles | undefined,
  category: string[] | null,
  /** The type a passage is read as (a description). */
  passageType: string,
): { item: ParsedItem; media: Map<string, MediaFile> } {
  const warnings = new Set<string>();
  const ctx: HtmlContext = {
    replacement: '',
    marked: new Map(),
    pkg,
    warnings,
    problems: [],
    media: new Map(),
    feedback: [],
  };
  const title = attr(root, 'title')?.trim() || null;
  const sourceType = localName(root);
  const body = qtiName(root) === 'assessmentStimulus' ? kid(root, 'stimulusBody') : root;
  const wrapper = body && wrapperAmong(body.children);
  const content = wrapper ? wrappedContent(wrapper, ctx) : { html: body ? childrenHtml(body, ctx).trim() : '' };
  const report = (message: string): ParsedItem => ({
    path,
    title,
    source_type: sourceType,
    status: 'error',
    message,
    warnings: [...warnings],
    category,
  });
  if (ctx.problems.length > 0) return { item: report(ctx.problems.join('; ')), media: new Map() };
  if (content.html === '') return { item: report('The passage has no text'), media: new Map() };
  const plain = content.plain !== undefined;
  const question: QuestionDraft = {
    question_type: passageType,
    question_text: plain ? content.plain! : content.html,
    text_format: plain ? 'plain' : 'html',
    marks: 0,
    difficulty: 'medium',
    ...(title !== null && !content.untitled ? { title } : {}),
    passage_key: path,
  };
  return {
    item: {
      path,
      title,
      source_type: sourceType,
      status: 'ok',
      message: null,
      warnings: [...warnings],
      category,
      question,
    },
    media: ctx.media,
  };
}

/** An item's warning for a passage it names beyond the first: a question shows one passage. */
export const extraPassageWarning = (href: string): string =>
  `It names a further passage, "${href}": a question shows one passage, so it was not linked (it is imported as a description of its own)`;

/** An item's warning for a passage it names that cannot be brought. */
export const missingPassageWarning = (href: string, why: string): string =>
  `Its passage "${href}" ${why}: it was imported without it`;
