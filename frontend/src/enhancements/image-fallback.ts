/**
 * An image that fails to load (a partner logo, a court's picture whose address no longer answers)
 * is replaced by the placeholder named in its `data-fallback`, and its text by `data-fallback-text`,
 * so the page shows no broken image with its raw alt text. Plain DOM, no React: the pages that use
 * it need nothing more.
 */
function showFallback(image: HTMLImageElement): void {
  const { fallback, fallbackText } = image.dataset;
  if (!fallback) return;
  image.removeAttribute("data-fallback");
  image.src = fallback;
  if (fallbackText !== undefined) image.alt = fallbackText;
}

for (const image of document.querySelectorAll<HTMLImageElement>("img[data-fallback]")) {
  // The module runs after parsing: an image may already have failed.
  if (image.complete && image.naturalWidth === 0 && image.currentSrc) showFallback(image);
  else image.addEventListener("error", () => showFallback(image), { once: true });
}
