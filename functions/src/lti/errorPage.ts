// Pure: the page a browser sees when a launch is refused. No external assets
// (the API's policy loads nothing), nothing from the request echoed but the
// fixed message and reason, escaped.

const escape = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const TITLES: Record<number, string> = {
  400: 'This launch cannot be read',
  401: 'This launch could not be verified',
  403: 'This launch is not allowed',
  404: 'Nothing to open',
  409: 'This launch cannot be completed',
  429: 'Too many launches',
  503: 'Try again in a moment',
};

export function launchErrorPage(error: { status: number; message: string; reason?: string }): string {
  const title = TITLES[error.status] ?? 'The launch failed';
  const reason = error.reason ? `<p>Reason: <code>${escape(error.reason)}</code></p>` : '';
  const retry =
    error.status === 503
      ? '<p>The service or the learning platform is briefly unavailable. Go back to your course and open the activity again.</p>'
      : '<p>Go back to your course and open the activity again. If this keeps happening, tell your teacher or the platform administrator what this page says.</p>';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title></head>
<body><main><h1>${escape(title)}</h1><p>${escape(error.message)}</p>${reason}${retry}<p>HTTP ${error.status}</p></main></body></html>
`;
}
