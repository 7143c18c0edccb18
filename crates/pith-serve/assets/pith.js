// pith serve: optional conveniences. Every page works without this script; it adds a copy
// button to each snippet and lets a PDF be dropped onto the upload field.
'use strict';
(function () {
  var status = document.getElementById('copy-status');

  function say(text) {
    if (status) { status.textContent = text; }
  }

  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    return new Promise(function (resolve, reject) {
      var area = document.createElement('textarea');
      area.value = text;
      area.setAttribute('readonly', '');
      area.className = 'offscreen';
      document.body.appendChild(area);
      area.select();
      var ok = document.execCommand('copy');
      document.body.removeChild(area);
      if (ok) { resolve(); } else { reject(new Error('the browser refused to copy')); }
    });
  }

  document.querySelectorAll('pre[data-copy]').forEach(function (pre) {
    var head = pre.previousElementSibling;
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy';
    button.textContent = 'Copy';
    button.setAttribute('aria-label', 'Copy ' + pre.getAttribute('data-copy'));
    button.addEventListener('click', function () {
      copy(pre.textContent).then(function () {
        button.textContent = 'Copied';
        say('Copied ' + pre.getAttribute('data-copy'));
        setTimeout(function () { button.textContent = 'Copy'; }, 2000);
      }, function () {
        say('Could not copy; select the text and copy it by hand.');
      });
    });
    (head && head.classList.contains('snippet-head') ? head : pre.parentNode).appendChild(button);
  });

  var drop = document.querySelector('.drop');
  var input = drop && drop.querySelector('input[type=file]');
  if (drop && input) {
    ['dragenter', 'dragover'].forEach(function (name) {
      drop.addEventListener(name, function (e) { e.preventDefault(); drop.classList.add('over'); });
    });
    ['dragleave', 'drop'].forEach(function (name) {
      drop.addEventListener(name, function () { drop.classList.remove('over'); });
    });
    drop.addEventListener('drop', function (e) {
      e.preventDefault();
      if (e.dataTransfer && e.dataTransfer.files.length) {
        input.files = e.dataTransfer.files;
        input.form.requestSubmit ? input.form.requestSubmit() : input.form.submit();
      }
    });
  }
})();
