// The real site computes X-s / X-t in an obfuscated vendor script and exposes it as window._webmsxyw; its own HTTP
// client calls it for every request. This hash is a stand-in for that algorithm: anything that skips the page's
// signer (a bare fetch) is caught by the server, which recomputes it (xywSign in server.ts must stay identical).
(function () {
  function fnv1a(s, h) {
    for (var i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return ('00000000' + (h >>> 0).toString(16)).slice(-8);
  }
  function a1() {
    var m = /(?:^|;\s*)a1=([^;]*)/.exec(document.cookie);
    return m ? m[1] : '';
  }
  window._webmsxyw = function (url, data) {
    var t = Date.now();
    var body = data !== null && typeof data === 'object' ? JSON.stringify(data) : '';
    var input = [url, body, String(t), a1()].join('\n');
    return { 'X-s': 'XYW_' + fnv1a(input, 0x811c9dc5) + fnv1a(input, 0x050c5d1f), 'X-t': t };
  };
})();
