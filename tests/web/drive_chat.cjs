// Drives the web chat and the page view in headless Chromium (Debian's) through playwright-core.
// Usage: node drive_chat.cjs '<json config>'; prints one JSON object with what it saw.
"use strict";
const path = require("path");
const config = JSON.parse(process.argv[2]);
const { chromium } = require(path.join(config.node_modules, "playwright-core"));

async function main() {
  const browser = await chromium.launch({
    executablePath: config.chromium, headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
           "--disable-sync", "--no-first-run"],
  });
  const seen = { console: [], responses: [] };
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.on("response", (r) => seen.responses.push({ url: r.url(), status: r.status() }));
    const chat = await context.newPage();
    chat.on("console", (m) => seen.console.push(m.type() + ": " + m.text()));
    chat.on("pageerror", (e) => seen.console.push("pageerror: " + e.message));
    const first = await chat.goto(config.chat_url);
    seen.chat_status = first.status();
    seen.chat_csp = first.headers()["content-security-policy"] || "";
    // every change of the answer while it is written: streaming shows as several lengths before the end
    await chat.evaluate(() => {
      window.__lengths = [];
      new MutationObserver(() => {
        const answer = document.querySelector(".turn:last-of-type .answer");
        if (answer && !answer.closest(".reply").classList.contains("done")) window.__lengths.push(answer.textContent.length);
      }).observe(document.getElementById("transcript"), { subtree: true, childList: true, characterData: true });
    });
    await chat.fill("#question", config.question);
    await chat.press("#question", "Enter");
    await chat.waitForSelector(".turn:nth-of-type(1) .reply.done .sources a.source", { timeout: 120000 });
    seen.lengths = await chat.evaluate(() => window.__lengths);
    seen.steps = await chat.$$eval(".turn:nth-of-type(1) .steps li", (items) => items.map((i) => i.textContent));
    seen.answer_text = await chat.$eval(".turn:nth-of-type(1) .answer", (a) => a.textContent);
    seen.answer_tables = await chat.$$eval(".turn:nth-of-type(1) .answer table", (t) => t.length);
    seen.sources = await chat.$$eval(".turn:nth-of-type(1) a.source", (cards) => cards.map((c) => ({
      href: c.getAttribute("href"), text: c.textContent })));
    await chat.waitForFunction(() => Array.from(document.querySelectorAll(".turn:nth-of-type(1) img.thumbnail"))
      .every((i) => i.complete), null, { timeout: 60000 });
    seen.thumbnails = await chat.$$eval(".turn:nth-of-type(1) img.thumbnail", (images) => images.map((i) => i.naturalWidth));
    seen.markers = await chat.$$eval(".turn:nth-of-type(1) sup.cite a", (links) => links.map((a) => a.getAttribute("href")));

    await chat.click(".turn:nth-of-type(1) button.feedback[aria-label='Helpful']");
    await chat.waitForSelector(".turn:nth-of-type(1) .actions .status:text('Thanks')");
    await chat.click(".turn:nth-of-type(1) button.copy");
    await chat.waitForFunction(() => /Copied|clipboard/.test(document.querySelector(".turn:nth-of-type(1) .actions .status").textContent));
    seen.copy_status = await chat.$eval(".turn:nth-of-type(1) .actions .status", (s) => s.textContent);

    if (config.followup) {
      await chat.fill("#question", config.followup);
      await chat.press("#question", "Enter");
      await chat.waitForSelector(".turn:nth-of-type(2) .reply.done", { timeout: 120000 });
      seen.followup_text = await chat.$eval(".turn:nth-of-type(2) .answer", (a) => a.textContent);
    }
    await chat.screenshot({ path: path.join(config.out_dir, "chat.png"), fullPage: true });

    const [view] = await Promise.all([context.waitForEvent("page"),
      chat.click(".turn:nth-of-type(1) a.source >> nth=0")]);
    const response = await view.waitForResponse((r) => r.url().includes("/view/image"), { timeout: 60000 })
      .catch(() => null);
    await view.waitForLoadState("load");
    seen.view_url = view.url();
    seen.image_status = response ? response.status() : null;
    seen.view = await view.evaluate(() => {
      const svg = document.querySelector("svg#page");
      const box = svg.getBoundingClientRect();
      const viewBox = svg.getAttribute("viewBox").split(" ").map(Number);
      return {
        title: document.querySelector("h1").textContent,
        meta: document.querySelector(".meta").textContent,
        section: document.querySelector(".section").textContent,
        nav: Array.from(document.querySelectorAll("nav a")).map((a) => ({ text: a.textContent, href: a.getAttribute("href") })),
        scripts: document.scripts.length,
        viewBox,
        svg: { x: box.x, y: box.y, width: box.width, height: box.height },
        rects: Array.from(document.querySelectorAll("rect.highlight")).map((r) => {
          const b = r.getBoundingClientRect();
          return { x: +r.getAttribute("x"), y: +r.getAttribute("y"), width: +r.getAttribute("width"),
                   height: +r.getAttribute("height"), client: { x: b.x, y: b.y, width: b.width, height: b.height } };
        }),
      };
    });
    await view.screenshot({ path: path.join(config.out_dir, "page-view.png"), fullPage: true });
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(seen));
}

main().catch((error) => { process.stderr.write(String(error && error.stack || error)); process.exit(1); });
