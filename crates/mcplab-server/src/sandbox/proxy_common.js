  // Shared by both proxy pages (inserted by the sandbox server): refuse to run anywhere but
  // inside an mcplab host page, and learn that page's origin.
  var HOSTS = /*MCPLAB_HOST_ORIGINS*/[];
  function refuse(why) {
    var p = document.createElement("p");
    p.id = "refused";
    p.textContent = "mcplab sandbox: " + why;
    document.body.appendChild(p);
  }
  if (window.top === window) { refuse("this page only works inside mcplab."); return; }
  var parentOrigin = null;
  try {
    if (location.ancestorOrigins && location.ancestorOrigins.length) parentOrigin = location.ancestorOrigins[0];
  } catch (e) { /* not supported */ }
  if (!parentOrigin && document.referrer) {
    try { parentOrigin = new URL(document.referrer).origin; } catch (e) { /* ignore */ }
  }
  if (HOSTS.indexOf(parentOrigin) < 0) { refuse("embedded by an unknown page (" + parentOrigin + ")."); return; }
