/**
 * A partner logo that fails to load is replaced by the 'Logo Error' placeholder named in its
 * `data-fallback`. Plain DOM, no React: the home page needs nothing more.
 */
function showFallback(image: HTMLImageElement): void {
  const fallback = image.dataset.fallback;
  if (!fallback) return;
  image.removeAttribute("data-fallback");
  image.src = fallback;
  image.alt = "Logo Error";
}

for (const image of document.querySelectorAll<HTMLImageElement>("img[data-fallback]")) {
  // The module runs after parsing: an image may already have failed.
  if (image.complete && image.naturalWidth === 0 && image.currentSrc) showFallback(image);
  else image.addEventListener("error", () => showFallback(image), { once: true });
}
