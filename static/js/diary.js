// The diary's Print button (no inline script: the page's security policy allows none).
document.addEventListener("click", (event) => {
  if (event.target.closest("[data-print]")) window.print();
});
