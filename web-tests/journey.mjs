// What every browser journey shares (doors.mjs, watch.mjs; run.mjs launches
// the same way): the headless Chromium launch, and one page per width
// (390 × 844 phone, 1440 × 900 desktop) that collects script errors.
import { chromium } from "playwright-core";

export const BASE = process.env.BASE || "http://127.0.0.1:8080";
export const SHOTS = process.env.SHOTS || "web-tests/screenshots";
export const WIDTHS = [1440, 390];

// launch starts the headless Chromium every suite uses.
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}

// journeyPage opens a page of the width, with the script errors it meets
// collected in errors.
export async function journeyPage(browser, width) {
  const ctx = await browser.newContext({ viewport: { width, height: width < 500 ? 844 : 900 } });
  const p = await ctx.newPage();
  const errors = [];
  p.on("pageerror", e => errors.push(e.message));
  p.on("console", m => { if (m.type() === "error") errors.push(m.text()); });
  return { ctx, p, errors };
}
