// A stand-in for Google's gapi loader (https://apis.google.com/js/api.js), served by the browser tests in
// its place: this machine has no network, and Firebase Auth's popup sign-in needs gapi.iframes on both
// sides of one iframe, the app's page (the SDK opens the iframe and listens for the sign-in's event) and
// the Auth emulator's iframe page (which relays the event from the popup). Only what those two call:
// load, getContext().open and getParentIframe(), and an iframe's restyle, ping, register and send, all
// over postMessage. Read by test/web/support/browser.ts; never part of the app.
(function () {
  'use strict';
  if (window.gapi && window.gapi.iframes) return;
  var TAG = 'gapi-stand-in';
  var nextId = 1;
  var replies = {};
  /** Handlers registered per peer window: a message names its type, the handler's answer goes back. */
  var peers = [];

  function peerOf(win) {
    for (var i = 0; i < peers.length; i++) if (peers[i].win === win) return peers[i];
    return null;
  }

  function channel(win) {
    var peer = { win: win, handlers: {}, pending: {}, ready: false, onReady: [] };
    peers.push(peer);
    return {
      peer: peer,
      // A message sent before its handler was registered waits for it, as gapi's own does.
      register: function (type, handler) {
        peer.handlers[type] = handler;
        (peer.pending[type] || []).splice(0).forEach(function (message) {
          answer(peer, message);
        });
      },
      send: function (type, data, callback) {
        var id = nextId++;
        replies[id] = callback || function () {};
        win.postMessage({ tag: TAG, kind: 'send', id: id, type: type, data: data }, '*');
      },
    };
  }

  window.addEventListener('message', function (event) {
    var message = event.data;
    if (!message || message.tag !== TAG) return;
    if (message.kind === 'ready') {
      // The iframe's page loads after open() made its peer: a ready always finds it.
      var loaded = peerOf(event.source);
      if (!loaded) return;
      loaded.ready = true;
      loaded.onReady.splice(0).forEach(function (resolve) {
        resolve();
      });
      return;
    }
    if (message.kind === 'reply') {
      var callback = replies[message.id];
      delete replies[message.id];
      // gapi keeps a callback's throw to itself: the SDK's web-storage callback always throws after
      // answering (its _fail follows its cb), which the page must not see as an uncaught error.
      try {
        if (callback) callback(message.results);
      } catch (err) {
        void err;
      }
      return;
    }
    var peer = peerOf(event.source);
    if (!peer) return;
    if (peer.handlers[message.type]) answer(peer, message);
    else (peer.pending[message.type] = peer.pending[message.type] || []).push(message);
  });

  function answer(peer, message) {
    var results = [peer.handlers[message.type](message.data)];
    peer.win.postMessage({ tag: TAG, kind: 'reply', id: message.id, results: results }, '*');
  }

  /** The SDK's side: an iframe in this page. */
  function open(options, onOpen) {
    var element = document.createElement('iframe');
    var attributes = options.attributes || {};
    Object.keys(attributes).forEach(function (name) {
      if (name === 'style') Object.assign(element.style, attributes.style);
      else element.setAttribute(name, attributes[name]);
    });
    element.src = options.url;
    (options.where || document.body).appendChild(element);
    var link = channel(element.contentWindow);
    var iframe = {
      restyle: function () {
        return Promise.resolve();
      },
      ping: function (callback) {
        return new Promise(function (resolve) {
          if (link.peer.ready) resolve();
          else link.peer.onReady.push(resolve);
        }).then(function () {
          if (callback) callback();
        });
      },
      register: link.register,
      send: link.send,
    };
    return Promise.resolve(onOpen ? onOpen(iframe) : iframe);
  }

  /** The iframe page's side: its parent, told at once that this side listens. */
  function getParentIframe() {
    var link = channel(window.parent);
    window.parent.postMessage({ tag: TAG, kind: 'ready' }, '*');
    return { register: link.register, send: link.send };
  }

  var context = { open: open, getParentIframe: getParentIframe };
  window.gapi = {
    load: function (_module, options) {
      setTimeout(function () {
        (typeof options === 'function' ? options : options.callback)();
      });
    },
    iframes: {
      Iframe: function () {},
      CROSS_ORIGIN_IFRAMES_FILTER: function () {
        return true;
      },
      getContext: function () {
        return context;
      },
    },
  };

  // The loader's own hand-off: ?onload=<name> (the SDK), or window.gapi_onload (the emulator's page).
  var script = document.currentScript;
  var onload = script && new URL(script.src).searchParams.get('onload');
  setTimeout(function () {
    if (onload && typeof window[onload] === 'function') window[onload]();
    else if (typeof window.gapi_onload === 'function') window.gapi_onload();
  });
})();
