(function () {
  // The site's own client signs every call (window._webmsxyw from signer.js).
  function request(method, path, body) {
    var form = body instanceof FormData;
    var sig = window._webmsxyw(path, form ? undefined : body);
    var headers = { 'X-s': sig['X-s'], 'X-t': String(sig['X-t']) };
    if (body && !form) headers['Content-Type'] = 'application/json;charset=UTF-8';
    return fetch(path, { method: method, credentials: 'include', headers: headers, body: form ? body : body ? JSON.stringify(body) : undefined });
  }
  var files = [];
  var topics = [];
  var $ = function (s) {
    return document.querySelector(s);
  };
  function toast(msg) {
    $('.d-toast-content').textContent = msg;
    $('.d-toast').hidden = false;
  }
  document.querySelectorAll('.creator-tab').forEach(function (tab) {
    tab.addEventListener('click', function () {
      if (tab.textContent === '上传图文') $('.upload-area').hidden = false;
    });
  });
  $('.upload-input').addEventListener('change', function (e) {
    // Each choice adds to the note's images (the 2025 uploader appended; xiaohongshu-mcp waited for one `.pr` per image).
    var added = Array.prototype.slice.call(e.target.files);
    files = files.concat(added);
    e.target.value = '';
    // "Uploading": each preview and the editor show up a moment later.
    setTimeout(function () {
      added.forEach(function (f) {
        var pr = document.createElement('div');
        pr.className = 'pr';
        pr.textContent = f.name;
        $('.img-preview-area').appendChild(pr);
      });
      $('.editor').hidden = false;
    }, 300);
  });
  var editor = $('.ql-editor');
  var box = $('#creator-editor-topic-container');
  editor.addEventListener('input', function () {
    var m = /#([^\s#[\]]+)$/.exec(editor.textContent);
    if (!m) {
      box.hidden = true;
      return;
    }
    request('GET', '/web_api/sns/v1/search/topic?keyword=' + encodeURIComponent(m[1]))
      .then(function (r) {
        return r.json();
      })
      .then(function (j) {
        box.innerHTML = '';
        j.data.topic_info_dtos.forEach(function (t) {
          var item = document.createElement('div');
          item.className = 'item';
          item.textContent = '#' + t.name;
          item.addEventListener('click', function () {
            editor.textContent = editor.textContent.replace(/#([^\s#[\]]+)$/, '#' + t.name + '[话题]# ');
            topics.push(t.name);
            editor.focus();
            var range = document.createRange();
            range.selectNodeContents(editor);
            range.collapse(false);
            var sel = window.getSelection();
            sel.removeAllRanges();
            sel.addRange(range);
            box.hidden = true;
            box.innerHTML = '';
          });
          box.appendChild(item);
        });
        box.hidden = false;
      });
  });
  $('.d-switch').addEventListener('click', function () {
    $('.date-picker').hidden = !$('.date-picker').hidden;
  });
  $('.publishBtn').addEventListener('click', function () {
    var title = $('.d-text').value;
    if (Array.from(title).length > 20) return toast('标题最多20个字');
    var fd = new FormData();
    fd.append('title', title);
    fd.append('desc', editor.textContent);
    fd.append('topics', topics.join(','));
    if (!$('.date-picker').hidden) fd.append('post_time', $('.date-picker input').value);
    files.forEach(function (f) {
      fd.append('images', f, f.name);
    });
    request('POST', '/web_api/sns/v2/note', fd).then(function (r) {
      if (r.status === 461) {
        $('#red-captcha').hidden = false;
        return;
      }
      return r.json().then(function (j) {
        if (j.success) location.href = '/publish/success?source=official&bind_status=not_bind';
        else toast(j.msg || '发布失败');
      });
    });
  });
})();
