(function () {
  // The site's own client signs every call (window._webmsxyw from signer.js).
  function request(method, path, body) {
    var sig = window._webmsxyw(path, body);
    var headers = { 'X-s': sig['X-s'], 'X-t': String(sig['X-t']) };
    if (body) headers['Content-Type'] = 'application/json;charset=UTF-8';
    return fetch(path, { method: method, credentials: 'include', headers: headers, body: body ? JSON.stringify(body) : undefined });
  }
  var LOGO = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='24' height='24'%3E%3Crect width='24' height='24' rx='6' fill='%23ff2442'/%3E%3C/svg%3E";
  var box = document.querySelector('.login-box-container');
  var password = box.querySelector('.password-panel');
  var qrPanel = null;
  // Bumped whenever the panel changes, so a poll loop of a panel that is gone stops.
  var epoch = 0;
  // Peers report the first click on the corner icon after load does nothing ("React 抽风"); they click again.
  var settled = false;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    return e;
  }

  function showQr() {
    var mine = ++epoch;
    request('POST', '/api/cas/customer/web/qr-code/create')
      .then(function (r) {
        return r.json();
      })
      .then(function (j) {
        if (mine !== epoch || !j.success) return;
        if (qrPanel) qrPanel.remove();
        password.remove();
        qrPanel = el('div', 'css-1x4qj0l');
        qrPanel.appendChild(el('div', 'css-1ssrdtv', '扫码登录'));
        qrPanel.appendChild(el('div', 'css-1k8rxm4', 'APP扫一扫登录'));
        var wrap = el('div', 'css-qr-wrap');
        var qr = el('img', 'css-1lhmg90');
        qr.width = 160;
        qr.height = 160;
        qr.src = j.data.url;
        var logo = el('img', 'css-qr-logo');
        logo.width = 24;
        logo.height = 24;
        logo.src = LOGO;
        wrap.appendChild(qr);
        wrap.appendChild(logo);
        qrPanel.appendChild(wrap);
        var status = el('div', 'css-9hp5bq');
        qrPanel.appendChild(status);
        box.appendChild(qrPanel);
        poll(j.data.qr_id, mine, wrap, status);
      });
  }

  function expired(wrap) {
    var mask = el('div', 'css-qr-mask');
    mask.appendChild(el('div', 'css-1b4x8nd', '二维码已过期'));
    var again = el('button', 'css-1jgt0wa', '点击刷新');
    again.type = 'button';
    again.addEventListener('click', showQr);
    mask.appendChild(again);
    wrap.appendChild(mask);
  }

  function poll(id, mine, wrap, status) {
    if (mine !== epoch) return;
    request('GET', '/api/cas/customer/web/qr-code/status?qr_id=' + encodeURIComponent(id))
      .then(function (r) {
        // A slider after the scan: the client follows the verification headers to the captcha page.
        if (r.status === 461) {
          location.href = '/website-login/captcha?redirectPath=%2Fnew%2Fhome&verifyUuid=' + encodeURIComponent(r.headers.get('Verifyuuid') || '');
          return null;
        }
        return r.json();
      })
      .then(function (j) {
        if (!j || mine !== epoch) return;
        var s = j.data && j.data.status;
        if (s === 'scanned') status.textContent = '扫码成功，请在手机上确认';
        if (s === 'expired') return expired(wrap);
        if (s === 'confirmed') {
          location.href = '/new/home';
          return;
        }
        setTimeout(function () {
          poll(id, mine, wrap, status);
        }, 700);
      });
  }

  box.querySelector('.css-wemwzq').addEventListener('click', function () {
    if (!settled) {
      settled = true;
      return;
    }
    if (qrPanel && qrPanel.isConnected) {
      epoch++;
      qrPanel.remove();
      qrPanel = null;
      box.appendChild(password);
      return;
    }
    showQr();
  });
})();
