(function () {
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
    files = Array.prototype.slice.call(e.target.files);
    // "Uploading": the editor shows up a moment later.
    setTimeout(function () {
      $('.img-preview-area').textContent = files.length + ' 张图片';
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
    fetch('/web_api/sns/v1/search/topic?keyword=' + encodeURIComponent(m[1]), { credentials: 'include' })
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
    fetch('/web_api/sns/v2/note', { method: 'POST', body: fd, credentials: 'include' }).then(function (r) {
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
