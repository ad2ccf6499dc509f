// Small page behaviour; htmx does the rest.
document.addEventListener("htmx:responseError", (event) => {
  const status = event.detail.xhr.status;
  const text = event.detail.xhr.responseText || "";
  const message = status === 403 ? "You are not allowed to do that." : `The server answered ${status}.`;
  const box = document.createElement("div");
  box.className = "messages";
  box.setAttribute("role", "alert");
  box.innerHTML = `<li class="error"></li>`;
  box.firstChild.textContent = text.length < 300 && !text.includes("<") ? text : message;
  document.querySelector("main").prepend(box);
  setTimeout(() => box.remove(), 8000);
});
