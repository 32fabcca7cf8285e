/**
 * The plain-text alternative of a message's HTML (multipart/alternative): what a text-only reader shows.
 * Links keep their address in parentheses, block ends become line breaks, entities are decoded.
 */
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}

export function htmlToText(html: string): string {
  const text = html
    .replace(/<(head|style|script|title)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(
      /<a\b[^>]*?\bhref\s*=\s*("([^"]*)"|'([^']*)')[^>]*>([\s\S]*?)<\/a\s*>/gi,
      (_m, _q, dq, sq, inner) => linkText(decodeEntities(dq ?? sq ?? ''), inner),
    )
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<\/(p|div|h[1-6]|tr|table|ul|ol|blockquote)\s*>/gi, '\n\n')
    .replace(/<\/(td|th)\s*>/gi, '\n')
    .replace(/<\/li\s*>/gi, '')
    .replace(/<[^>]*>/g, '');
  return decodeEntities(text.replace(/[ \t\r\f\v]+/g, ' '))
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** `text (url)`, or the url alone when the text is the url. */
function linkText(url: string, innerHtml: string): string {
  const inner = decodeEntities(innerHtml.replace(/<[^>]*>/g, '')).trim();
  if (!url || inner === url) return url || inner;
  return inner ? `${inner} (${url})` : url;
}
