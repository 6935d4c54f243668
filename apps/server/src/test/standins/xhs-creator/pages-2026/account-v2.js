(function () {
  // 数据中心 · 账号概览 (/statistics/account/v2): the page asks its figures from account/base through the site's own
  // signed client (window._webmsxyw from signer.js) and draws them; nothing is in the HTML itself.
  function request(method, path) {
    var sig = window._webmsxyw(path);
    return fetch(path, { method: method, credentials: 'include', headers: { 'X-s': sig['X-s'], 'X-t': String(sig['X-t']) } });
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  // The lists carry the China-local midnight of each day in epoch ms.
  function day(ms) {
    return new Date(ms + 8 * 3600000).toISOString().slice(0, 10);
  }
  // -1: not computed yet, shown as a dash.
  function shown(n) {
    return typeof n === 'number' && n >= 0 ? n.toLocaleString('en-US') : '-';
  }
  var root = document.querySelector('.account-overview-v2');
  request('GET', '/api/galaxy/v2/creator/datacenter/account/base')
    .then(function (r) {
      return r.json();
    })
    .then(function (j) {
      if (!j || !j.success) {
        root.appendChild(el('div', 'd-empty', '数据加载失败'));
        return;
      }
      var block = j.data.thirty;
      var cards = el('div', 'overview-cards');
      [
        ['观看数', block.view_count],
        ['点赞数', block.like_count],
        ['收藏数', block.collect_count],
        ['净涨粉', block.net_rise_fans_count],
      ].forEach(function (c) {
        var card = el('div', 'overview-card');
        card.appendChild(el('span', 'label', c[0]));
        card.appendChild(el('span', 'num', shown(c[1])));
        cards.appendChild(card);
      });
      root.appendChild(cards);
      var table = el('table', 'd-table');
      var head = el('tr');
      ['日期', '观看数', '点赞数', '收藏数', '评论数', '分享数', '净涨粉'].forEach(function (h) {
        head.appendChild(el('th', '', h));
      });
      table.appendChild(head);
      var lists = ['view_list', 'like_list', 'collect_list', 'comment_list', 'share_list', 'net_rise_fans_count_list'];
      (block.view_list || []).forEach(function (entry, i) {
        var tr = el('tr');
        tr.appendChild(el('td', '', day(entry.date)));
        lists.forEach(function (k) {
          var e = (block[k] || [])[i];
          tr.appendChild(el('td', '', shown(e && e.count)));
        });
        table.appendChild(tr);
      });
      root.appendChild(table);
    });
})();
