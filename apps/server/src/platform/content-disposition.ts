/**
 * Content-Disposition for any file name (RFC 6266 with RFC 5987 `filename*`): an ASCII fallback without quotes,
 * backslashes or control characters, and the UTF-8 name percent-encoded, so quotes, Chinese and emoji survive and
 * nothing can break out of the header.
 */
export function contentDisposition(fileName: string, inline = false): string {
  const fallback =
    fileName
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters must not reach a header
      .replace(/[\u0000-\u001f\u007f"\\%;]/g, '_')
      .replace(/[^\u0020-\u007e]/g, '_')
      .trim() || 'file';
  const encoded = encodeURIComponent(fileName).replace(
    /['()*!]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${inline ? 'inline' : 'attachment'}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
