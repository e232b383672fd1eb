import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { Toaster } from "react-hot-toast";

let mounted = false;

/**
 * Mounts the page's one toast host, the first time an island needs it. Islands share this module
 * (Vite puts it in a common chunk), so however many islands call it, there is one host.
 * Toasts: top-center, at most 20 kept (react-hot-toast's own limit), errors 4000 ms,
 * successes 2000 ms, loading until dismissed.
 */
export function ensureToastHost(): void {
  if (mounted) return;
  mounted = true;
  const container = document.createElement("div");
  container.id = "toast-host";
  document.body.append(container);
  createRoot(container).render(
    <StrictMode>
      <Toaster
        position="top-center"
        toastOptions={{ success: { duration: 2000 }, error: { duration: 4000 } }}
      />
    </StrictMode>,
  );
}
