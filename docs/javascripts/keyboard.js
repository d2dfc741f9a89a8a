/* Keyboard access where Material leaves gaps.

   1. Every box that scrolls (WCAG 2.1.1; axe-core's scrollable-region-focusable).
   A code block, a wide table, a notebook cell or output that scrolls sideways must be reachable with
   Tab so the arrow keys can scroll it. Material does this for code blocks only, and only where the
   device has hover: on a phone none is reachable, and tables and notebook cells never are.

   A box whose overflow is auto or scroll, whose content is larger than it, and that holds nothing
   focusable of its own gets tabindex="0" (and loses it when it no longer scrolls). Boxes are measured
   again whenever their size changes: a new width, a tab or fold that shows them. When Material takes
   the tabindex off a code block (it does on devices without hover), it is put back. */
(() => {
  const MARK = "data-scroll-focus";
  const FOCUSABLE = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, iframe, [contenteditable], [tabindex]:not([tabindex="-1"])';
  const SCROLLING = /^(auto|scroll)$/;

  const canScroll = style => SCROLLING.test(style.overflowX) || SCROLLING.test(style.overflowY);
  const scrolls = box => {
    const style = getComputedStyle(box);
    return (SCROLLING.test(style.overflowX) && box.scrollWidth > box.clientWidth + 1)
      || (SCROLLING.test(style.overflowY) && box.scrollHeight > box.clientHeight + 1);
  };
  const holdsFocusable = box => box.querySelector(FOCUSABLE) !== null;

  const update = box => {
    const ours = box.hasAttribute(MARK);
    if (box.hasAttribute("tabindex") && !ours) return;  // focusable already, by its own markup or Material
    if (scrolls(box) && !holdsFocusable(box)) {
      if (box.getAttribute("tabindex") !== "0") box.setAttribute("tabindex", "0");
      box.setAttribute(MARK, "");
    } else if (ours) {
      box.removeAttribute("tabindex");
      box.removeAttribute(MARK);
    }
  };

  const start = () => {
    const boxes = [...document.body.querySelectorAll(".md-main *")].filter(box => canScroll(getComputedStyle(box)));
    const sizes = new ResizeObserver(entries => entries.forEach(entry => update(entry.target)));
    // Material removes a code block's tabindex where there is no hover; the mark says it is ours to keep.
    const attributes = new MutationObserver(records => records.forEach(record => {
      const box = record.target;
      if (box.hasAttribute(MARK) && !box.hasAttribute("tabindex")) {
        box.removeAttribute(MARK);
        update(box);
      }
    }));
    boxes.forEach(box => {
      update(box);
      sizes.observe(box);
      attributes.observe(box, {attributes: true, attributeFilter: ["tabindex"]});
    });
  };

  // Material wraps tables in their scrolling box when its script starts; that has happened by `load`.
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start, {once: true});
})();

/* 2. The search box on a narrow screen (WCAG 2.4.7, focus visible). Below 960 px Material hides the search box
   until its button is pressed, and the button is a label the Tab key skips: Tab reached the box while it was
   still hidden, and the reader saw no focus until the first key. Reached so, the search opens, as its button
   opens it (Material's own toggle); it closes again as Material closes it, on Escape or when focus leaves. */
(() => {
  const narrow = matchMedia("(max-width: 59.984375em)");
  const input = document.querySelector(".md-search__input");
  const toggle = document.getElementById("__search");
  if (!input || !toggle) return;
  input.addEventListener("focus", () => {
    if (narrow.matches && !toggle.checked) {
      toggle.checked = true;
      toggle.dispatchEvent(new Event("change"));
    }
  });
})();
