import { readdirSync } from "node:fs";
import { resolve } from "node:path";

import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// One Rollup input per island: every file in src/islands is an entry, named after the file, so a
// page loads only the islands it mounts (see kernel/templatetags/islands.py for the template side).
// src/enhancements holds small scripts without React, loaded by pages with {% vite_asset %}.
function entries(folder: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(resolve(import.meta.dirname, folder))
      .filter((file) => /\.tsx?$/.test(file))
      .map((file) => [file.replace(/\.tsx?$/, ""), resolve(import.meta.dirname, folder, file)]),
  );
}
const islands = { ...entries("src/islands"), ...entries("src/enhancements") };

export default defineConfig({
  // Django serves the build under STATIC_URL + "dist/" (STATICFILES_DIRS in club/settings.py).
  base: "/static/dist/",
  plugins: [react(), tailwindcss()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    manifest: "manifest.json",
    rollupOptions: {
      input: {
        ...islands,
        main: resolve(import.meta.dirname, "src/styles/main.css"),
        dashboard: resolve(import.meta.dirname, "src/styles/dashboard.css"),
        "day-sheet": resolve(import.meta.dirname, "src/styles/day-sheet.css"),
      },
    },
  },
  server: {
    host: "127.0.0.1",
    port: 5173,
    strictPort: true,
    origin: "http://127.0.0.1:5173",
    cors: { origin: /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/ },
  },
});
