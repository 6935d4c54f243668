(function () {
  // The site's own client signs every call (window._webmsxyw from signer.js).
  function request(method, path, body) {
    var form = body instanceof FormData;
    var sig = window._webmsxyw(path, form ? undefined : body);
    var headers = { 'X-s': sig['X-s'], 'X-t': String(sig['X-t']) };
    if (body && !form) headers['Content-Type'] = 'application/json;charset=UTF-8';
    return fetch(path, { method: method, credentials: 'include', headers: headers, body: form ? body : body ? JSON.stringify(body) : undefined });
  }
  var panel = document.querySelector('.qr-panel');
  var img = document.querySelector('.qrcode-img');
  var status = document.querySelector('.qrcode-status');
  function poll(id) {
    request('GET', '/api/cas/customer/web/qr-code/status?qr_id=' + encodeURIComponent(id))
      .then(function (r) {
        // A slider after the scan: the client follows the verification headers to the captcha page.
        if (r.status === 461) {
          location.href = '/website-login/captcha?redirectPath=%2Fnew%2Fhome&verifyUuid=' + encodeURIComponent(r.headers.get('Verifyuuid') || '');
          return new Promise(function () {});
        }
        return r.json();
      })
      .then(function (j) {
        var s = j.data.status;
        status.className = 'qrcode-status ' + s;
        if (s === 'scanned') status.textContent = '扫码成功，请在手机上确认';
        if (s === 'expired') {
          status.textContent = '二维码已过期';
          return;
        }
        if (s === 'confirmed') {
          location.href = '/new/home';
          return;
        }
        setTimeout(function () {
          poll(id);
        }, 700);
      });
  }
  document.querySelector('.css-wemwzq').addEventListener('click', function () {
    request('POST', '/api/cas/customer/web/qr-code/create')
      .then(function (r) {
        return r.json();
      })
      .then(function (j) {
        img.src = j.data.url;
        document.querySelector('.password-panel').hidden = true;
        panel.hidden = false;
        poll(j.data.qr_id);
      });
  });
})();
