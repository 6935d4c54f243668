(function () {
  var panel = document.querySelector('.qr-panel');
  var img = document.querySelector('.qrcode-img');
  var status = document.querySelector('.qrcode-status');
  function poll(id) {
    fetch('/api/cas/customer/web/qr-code/status?qr_id=' + encodeURIComponent(id), { credentials: 'include' })
      .then(function (r) {
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
    fetch('/api/cas/customer/web/qr-code/create', { method: 'POST', credentials: 'include' })
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
