// 神使控制台: the little the pages need beyond HTML forms (no build step, nothing fetched
// from elsewhere): copy an announcement's text, show a role when the GM asks, confirm a reject.
"use strict";

function copyText(text, button) {
  const done = () => { const was = button.textContent; button.textContent = "已复制"; setTimeout(() => { button.textContent = was; }, 1500); };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done, () => fallbackCopy(text, done));
  } else {
    fallbackCopy(text, done);
  }
}

function fallbackCopy(text, done) {
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  try { document.execCommand("copy"); done(); } finally { document.body.removeChild(area); }
}

document.addEventListener("click", (event) => {
  const copy = event.target.closest("button.copy");
  if (copy) {
    const source = document.querySelector(copy.dataset.copy);
    if (source) copyText(source.value, copy);
    return;
  }
  const reveal = event.target.closest("button.reveal");
  if (reveal) {
    const shown = reveal.nextElementSibling;
    if (!shown.hidden) { shown.hidden = true; reveal.textContent = "显示身份"; return; }
    fetch(reveal.dataset.url, { credentials: "same-origin", cache: "no-store" })
      .then((r) => r.ok ? r.json() : Promise.reject(r.status))
      .then((data) => { shown.textContent = data.role; shown.hidden = false; reveal.textContent = "隐藏"; })
      .catch(() => { shown.textContent = "读不到"; shown.hidden = false; });
  }
});

document.addEventListener("submit", (event) => {
  const question = event.target.dataset.confirm;
  if (question && !window.confirm(question)) event.preventDefault();
});
