(function () {
  // The site's own client signs every call (window._webmsxyw from signer.js); multipart bodies are signed without data.
  function request(method, path, body) {
    var form = body instanceof FormData;
    var sig = window._webmsxyw(path, form ? undefined : body);
    var headers = { 'X-s': sig['X-s'], 'X-t': String(sig['X-t']) };
    if (body && !form) headers['Content-Type'] = 'application/json;charset=UTF-8';
    return fetch(path, { method: method, credentials: 'include', headers: headers, body: form ? body : body ? JSON.stringify(body) : undefined });
  }
  var $ = function (s) {
    return document.querySelector(s);
  };
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    return e;
  }
  function toast(msg) {
    $('.d-toast-content').textContent = msg;
    $('.d-toast').hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(function () {
      $('.d-toast').hidden = true;
    }, 5000);
  }
  var ACCEPT = '.jpg,.jpeg,.png,.webp';
  var MAX_IMAGES = 18;
  var PLACEHOLDER = '输入正文描述，真诚有价值的分享予人温暖';

  // The header avatar comes from personal_info, as on the real page.
  request('GET', '/api/galaxy/creator/home/personal_info')
    .then(function (r) {
      return r.json();
    })
    .then(function (j) {
      if (!j.success) return;
      $('.user-avatar').src = j.data.avatar;
      $('.user-name').textContent = j.data.name;
    })
    .catch(function () {});

  // A "原创声明" dialog served with this load (failNext('original-dialog')): the mask swallows clicks until dismissed.
  var modal = $('.d-modal-mask');
  if (modal) {
    modal.querySelectorAll('button').forEach(function (b) {
      b.addEventListener('click', function () {
        modal.remove();
      });
    });
  }

  /* ---------- tabs and upload ---------- */
  var images = [];
  var uploading = false;
  var editorShown = false;
  var activeTab = /[?&]target=image(?:&|$)/.test(location.search) ? 'image' : 'video';

  function renderUpload() {
    var wrap = $('.upload-wrapper');
    wrap.innerHTML = '';
    if (editorShown) return;
    var box = el('div', 'upload-content');
    if (activeTab === 'video') {
      var v = el('input', 'upload-input');
      v.type = 'file';
      v.accept = '.mp4,.mov,.flv,.f4v,.mkv,.rm,.rmvb,.m4v,.mpg,.mpeg,.ts';
      box.appendChild(v);
      box.appendChild(el('button', 'upload-button', '上传视频'));
    } else if (activeTab === 'image') {
      box.appendChild(imageInput('upload-input'));
      box.appendChild(el('button', 'upload-button', '上传图片'));
    } else {
      box.appendChild(el('button', 'new-creation', '新的创作'));
    }
    wrap.appendChild(box);
  }
  function imageInput(cls) {
    var input = el('input', cls);
    input.type = 'file';
    input.multiple = true;
    input.accept = ACCEPT;
    input.addEventListener('change', function () {
      var files = Array.prototype.slice.call(input.files || []);
      input.value = '';
      files.forEach(accept);
    });
    return input;
  }
  document.querySelectorAll('.creator-tab[data-tab]').forEach(function (tab) {
    tab.addEventListener('click', function () {
      if (editorShown) return;
      activeTab = tab.getAttribute('data-tab');
      markTabs();
      renderUpload();
    });
  });
  function markTabs() {
    document.querySelectorAll('.creator-tab[data-tab]').forEach(function (t) {
      t.classList.toggle('active', t.getAttribute('data-tab') === activeTab);
    });
  }
  markTabs();
  renderUpload();

  // One upload at a time: a file arriving while another is still uploading is dropped without a word, which is the
  // silent image loss peers report when they set every file at once.
  function accept(file) {
    if (uploading || images.length >= MAX_IMAGES) return;
    uploading = true;
    var item = { file: file, done: false };
    images.push(item);
    updateSubmit();
    setTimeout(function () {
      item.done = true;
      uploading = false;
      var pr = el('div', 'pr');
      var img = el('img');
      img.src = URL.createObjectURL(file);
      pr.appendChild(img);
      var area = $('.img-preview-area');
      area.insertBefore(pr, $('.img-upload-area'));
      if (!editorShown) showEditor();
      updateSubmit();
    }, 250);
  }
  // After the first picture the upload box is re-rendered as the grid's "+" tile, and its input loses .upload-input.
  function showEditor() {
    editorShown = true;
    renderUpload();
    $('.img-upload-area').appendChild(imageInput(''));
    $('.publish-editor').hidden = false;
  }

  /* ---------- title ---------- */
  var title = $('.d-input input.d-text');
  title.addEventListener('input', function () {
    $('.d-text-count').textContent = Array.from(title.value).length + '/20';
    updateSubmit();
  });

  /* ---------- body (TipTap / ProseMirror) ---------- */
  var editor = $('.tiptap.ProseMirror');
  function emptyParagraph() {
    var p = el('p', 'is-empty is-editor-empty');
    p.setAttribute('data-placeholder', PLACEHOLDER);
    p.appendChild(el('br', 'ProseMirror-trailingBreak'));
    return p;
  }
  function caretInto(node, offset) {
    var range = document.createRange();
    range.setStart(node, offset);
    range.collapse(true);
    var sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
  }
  function bodyText() {
    return editor.innerText.replace(/\u00a0/g, ' ').replace(/\n+$/, '');
  }
  // TipTap keeps one placeholder paragraph when empty and drops the attribute as soon as there is text.
  function normaliseEditor() {
    if (editor.textContent === '') {
      if (!(editor.children.length === 1 && editor.firstElementChild.hasAttribute('data-placeholder'))) {
        editor.innerHTML = '';
        editor.appendChild(emptyParagraph());
        caretInto(editor.firstChild, 0);
      }
      return;
    }
    editor.querySelectorAll('p[data-placeholder]').forEach(function (p) {
      p.removeAttribute('data-placeholder');
      p.classList.remove('is-empty', 'is-editor-empty');
    });
  }

  // Rendered by the app: no stray whitespace nodes around the paragraph.
  editor.innerHTML = '';
  editor.appendChild(emptyParagraph());

  /* ---------- topics ---------- */
  var box = $('#creator-editor-topic-container');
  var topics = [];
  var seq = 0;
  var debounce = null;
  function hideTopics() {
    box.style.display = 'none';
    box.innerHTML = '';
  }
  function typedTopic() {
    var sel = window.getSelection();
    if (!sel || !sel.anchorNode || sel.anchorNode.nodeType !== 3 || !editor.contains(sel.anchorNode)) return null;
    var before = sel.anchorNode.textContent.slice(0, sel.anchorOffset);
    var m = /#([^\s#[\]]+)$/.exec(before);
    return m ? { node: sel.anchorNode, end: sel.anchorOffset, typed: m[0], keyword: m[1] } : null;
  }
  function searchTopics() {
    var t = typedTopic();
    clearTimeout(debounce);
    var mine = ++seq;
    hideTopics();
    if (!t) return;
    debounce = setTimeout(function () {
      var body = {
        keyword: t.keyword,
        suggest_topic_request: { title: title.value, desc: bodyText() },
        page: { page_size: 20, page: 1 },
      };
      request('POST', '/web_api/sns/v1/search/topic', body)
        .then(function (r) {
          return r.json();
        })
        .then(function (j) {
          if (mine !== seq || !j.success) return;
          var list = (j.data && j.data.topic_info_dtos) || [];
          list.forEach(function (topic) {
            var item = el('div', 'item');
            item.appendChild(el('span', 'name', '#' + topic.name));
            if (topic.view_num) item.appendChild(el('span', 'num', topic.view_num + '人浏览'));
            // Keep the caret in the editor while the item is pressed.
            item.addEventListener('mousedown', function (e) {
              e.preventDefault();
            });
            item.addEventListener('click', function () {
              pick(t, topic.name);
            });
            box.appendChild(item);
          });
          if (list.length) box.style.display = 'block';
        })
        .catch(function () {});
    }, 150);
  }
  function pick(t, name) {
    var text = t.node.textContent;
    if (!t.node.isConnected || text.slice(t.end - t.typed.length, t.end) !== t.typed) return hideTopics();
    var chosen = '#' + name + '[话题]# ';
    t.node.textContent = text.slice(0, t.end - t.typed.length) + chosen + text.slice(t.end);
    caretInto(t.node, t.end - t.typed.length + chosen.length);
    topics.push(name);
    seq++;
    hideTopics();
    editor.focus();
  }
  editor.addEventListener('input', function () {
    normaliseEditor();
    searchTopics();
  });

  /* ---------- content-type declaration ---------- */
  var DECLARATIONS = [
    { text: '虚构演绎，仅供娱乐', origin: 1 },
    { text: '笔记含AI合成内容', origin: 2 },
    { text: '已自主标注', origin: 3 },
  ];
  var declaration = null;
  var popover = null;
  function closePopover() {
    if (popover) popover.remove();
    popover = null;
  }
  $('.declaration-row').addEventListener('click', function (e) {
    e.stopPropagation();
    if (popover) return closePopover();
    var row = $('.declaration-row').getBoundingClientRect();
    popover = el('div', 'd-popover');
    popover.style.left = row.left + window.scrollX + 'px';
    popover.style.top = row.bottom + window.scrollY + 4 + 'px';
    var list = el('div', 'd-options');
    DECLARATIONS.forEach(function (d) {
      var opt = el('div', 'd-option', d.text);
      opt.addEventListener('click', function (ev) {
        ev.stopPropagation();
        declaration = d;
        $('.declaration-text').textContent = d.text;
        closePopover();
      });
      list.appendChild(opt);
    });
    popover.appendChild(list);
    document.body.appendChild(popover);
  });
  document.addEventListener('click', function (e) {
    if (popover && !popover.contains(e.target)) closePopover();
  });

  /* ---------- schedule ---------- */
  var sw = $('.post-time-wrapper .d-switch');
  var picker = $('.date-picker-container');
  var when = picker.querySelector('input');
  var lastValid = '';
  function pad(n) {
    return (n < 10 ? '0' : '') + n;
  }
  function chinaTime(ms) {
    var d = new Date(ms + 8 * 3600000);
    return d.getUTCFullYear() + '-' + pad(d.getUTCMonth() + 1) + '-' + pad(d.getUTCDate()) + ' ' + pad(d.getUTCHours()) + ':' + pad(d.getUTCMinutes());
  }
  // Like the site's picker: whatever was typed is shown back as YYYY-MM-DD HH:mm, or the last valid value returns.
  function normaliseWhen() {
    var m = /^\s*(\d{4})\D+(\d{1,2})\D+(\d{1,2})\D+(\d{1,2})\D+(\d{1,2})\D*$/.exec(when.value);
    if (m && +m[2] >= 1 && +m[2] <= 12 && +m[3] >= 1 && +m[3] <= 31 && +m[4] < 24 && +m[5] < 60) {
      lastValid = m[1] + '-' + pad(+m[2]) + '-' + pad(+m[3]) + ' ' + pad(+m[4]) + ':' + pad(+m[5]);
    }
    when.value = lastValid;
  }
  when.addEventListener('change', normaliseWhen);
  when.addEventListener('blur', normaliseWhen);
  when.addEventListener('keydown', function (e) {
    if (e.key === 'Enter') normaliseWhen();
  });
  sw.addEventListener('click', function () {
    var on = !sw.classList.contains('checked');
    sw.classList.toggle('checked', on);
    sw.setAttribute('aria-checked', String(on));
    picker.hidden = !on;
    // The picker opens on a default an hour ahead; typing after a click appends to it.
    if (on && !lastValid) {
      lastValid = chinaTime(Date.now() + 3600000);
      when.value = lastValid;
    }
    button.setAttribute('submit-text', on ? '定时发布' : '发布');
  });

  /* ---------- submit: <xhs-publish-btn> ---------- */
  customElements.define(
    'xhs-publish-btn',
    class extends HTMLElement {
      static get observedAttributes() {
        return ['submit-disabled', 'submit-text'];
      }
      constructor() {
        super();
        var root = this.attachShadow({ mode: 'closed' });
        root.innerHTML =
          '<style>:host{display:block;width:600px;height:36px}.bar{display:flex;justify-content:flex-end;gap:12px;height:36px}' +
          'button{width:96px;height:36px;border:1px solid #ddd;border-radius:18px;background:#fff;cursor:pointer}' +
          'button.bg-red{background:#ff2442;color:#fff;border:none}button[disabled]{opacity:.45;cursor:not-allowed}</style>' +
          '<div class="bar"><button class="ce-btn" part="cancel">暂存离开</button><button class="ce-btn bg-red" part="submit">发布</button></div>';
        this._submit = root.querySelector('.bg-red');
        root.querySelector('.ce-btn:not(.bg-red)').addEventListener('click', () => {
          this.dispatchEvent(new CustomEvent('save-draft'));
        });
        this._submit.addEventListener('click', () => {
          this.dispatchEvent(new CustomEvent('publish'));
        });
      }
      attributeChangedCallback() {
        this._submit.disabled = this.getAttribute('submit-disabled') === 'true';
        this._submit.textContent = this.getAttribute('submit-text') || '发布';
      }
    },
  );
  var button = $('xhs-publish-btn');
  function updateSubmit() {
    var ready =
      images.length > 0 &&
      images.every(function (i) {
        return i.done;
      });
    button.setAttribute('submit-disabled', String(!(ready && title.value.trim() !== '')));
  }

  function note() {
    var desc = bodyText();
    var binds = { version: 1, noteCopyBind: { copyable: true } };
    if (declaration) binds.userDeclarationBind = { origin: declaration.origin };
    return {
      title: title.value,
      desc: desc,
      // Only topics whose inserted text is still in the body.
      topics: topics.filter(function (t, i) {
        return topics.indexOf(t) === i && desc.indexOf('#' + t + '[话题]#') >= 0;
      }),
      postTime: sw.classList.contains('checked') ? (normaliseWhen(), when.value) : '',
      businessBinds: JSON.stringify(binds),
    };
  }
  var submitting = false;
  button.addEventListener('publish', function () {
    if (submitting) return;
    var n = note();
    if (Array.from(n.title).length > 20) return toast('标题最多20个字');
    var fd = new FormData();
    fd.append('title', n.title);
    fd.append('desc', n.desc);
    fd.append('topics', n.topics.join(','));
    fd.append('post_time', n.postTime);
    fd.append('business_binds', n.businessBinds);
    images.forEach(function (i) {
      fd.append('images', i.file, i.file.name);
    });
    submitting = true;
    request('POST', '/web_api/sns/v2/note', fd)
      .then(function (r) {
        if (r.status === 461) {
          $('#red-captcha').hidden = false;
          return;
        }
        return r.json().then(function (j) {
          if (j.success) location.href = '/publish/success?source=official';
          else toast(j.msg || '发布失败');
        });
      })
      .catch(function () {
        toast('网络连接异常，请稍后重试');
      })
      .then(function () {
        submitting = false;
      });
  });
  // Drafts stay in this browser on the real site (草稿箱); the stand-in also reports them so a test can see them.
  button.addEventListener('save-draft', function () {
    var n = note();
    var draft = { title: n.title, desc: n.desc, topics: n.topics, images: images.length, postTime: n.postTime };
    try {
      var all = JSON.parse(localStorage.getItem('creator-drafts') || '[]');
      all.push(draft);
      localStorage.setItem('creator-drafts', JSON.stringify(all));
    } catch {
      // Storage can be unavailable (opaque origins); the draft still reaches the server.
    }
    fetch('/__standin/draft', { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(draft) }).then(function () {
      location.href = '/new/home';
    });
  });
})();
