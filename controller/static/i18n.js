// The pages' texts in the reader's language (status, player and /sim pages).
//
// Static texts are marked in the HTML: an element with `data-i18n` has its English text as the
// message id (mark leaf elements only: the text replaces the element's content), and
// `data-i18n-title`, `data-i18n-placeholder`, `data-i18n-aria-label` hold the message id of
// that attribute. Texts made in script go through `t(msgid, args)`: `args` fill its {fields}.
// The dictionary (English -> translation) comes from the server: `/api/texts` by default, or
// the URL in this script tag's `data-texts` (the /sim page: `/sim/api/texts`). The server
// chooses the language the same way for the texts, the status and the event stream: `?lang=`,
// then the `lang` cookie the switch sets, then the browser's Accept-Language, then the table's.
(function () {
  "use strict";

  // Each in its own words. The codes are games/core/translation.py's LANGUAGES (the switch is
  // drawn before any request; tests/controller/test_languages.py keeps the two lists equal).
  const LANGUAGES = {en: "English", de: "Deutsch"};
  const ATTRIBUTES = ["title", "placeholder", "aria-label"];
  const script = document.currentScript;
  const textsUrl = (script && script.dataset.texts) || "/api/texts";
  let texts = {};
  let language = null;  // the language the server answered in
  const listeners = [];

  function cookieLanguage() {
    const found = document.cookie.split(";").map(part => part.trim())
      .find(part => part.startsWith("lang="));
    return found ? decodeURIComponent(found.slice(5)) : null;
  }

  function queryLanguage() {
    return new URLSearchParams(window.location.search).get("lang");
  }

  // The language the page shows: the server's answer once the texts are in.
  function pageLanguage() {
    return language || queryLanguage() || cookieLanguage() || document.documentElement.lang || "en";
  }

  // A message in the page's language, its {fields} filled from args; unknown: the English.
  function t(msgid, args) {
    const own = Object.prototype.hasOwnProperty.call(texts, msgid) ? texts[msgid] : "";
    const template = own || msgid;
    return template.replace(/\{(\w+)\}/g, (field, name) =>
      args && Object.prototype.hasOwnProperty.call(args, name) ? String(args[name]) : field);
  }

  // The English text of a marked element, whitespace as a browser shows it.
  function msgidOf(element) {
    if (element.dataset.i18nId === undefined) {
      element.dataset.i18nId = element.textContent.replace(/\s+/g, " ").trim();
    }
    return element.dataset.i18nId;
  }

  // Fill every marked element under root (the whole page by default).
  function applyTexts(root) {
    const scope = root || document;
    const marked = [...scope.querySelectorAll("[data-i18n]")];
    if (scope.matches && scope.matches("[data-i18n]")) marked.push(scope);
    for (const element of marked) element.textContent = t(msgidOf(element));
    for (const attribute of ATTRIBUTES) {
      const name = "data-i18n-" + attribute;
      const withAttribute = [...scope.querySelectorAll("[" + name + "]")];
      if (scope.matches && scope.matches("[" + name + "]")) withAttribute.push(scope);
      for (const element of withAttribute) {
        element.setAttribute(attribute, t(element.getAttribute(name)));
      }
    }
  }

  // Load the dictionary (for `wanted`, or whatever the server chooses), fill the page and tell
  // the page's listeners, which re-render their own texts and re-subscribe their streams.
  async function loadTexts(wanted) {
    const url = wanted ? textsUrl + "?lang=" + encodeURIComponent(wanted) : textsUrl;
    try {
      const response = await fetch(url, {headers: {Accept: "application/json"}});
      if (!response.ok) throw new Error(response.status + " " + response.statusText);
      texts = await response.json();
      language = response.headers.get("Content-Language") || wanted || "en";
    } catch (error) {  // no dictionary: the page stays readable, in English
      console.warn("texts not loaded:", error);
      texts = {};
      language = "en";
    }
    document.documentElement.lang = language;
    applyTexts(document);
    for (const select of document.querySelectorAll("select.language-switch")) {
      select.value = language;
    }
    for (const listener of listeners) listener(language);
    return language;
  }

  // Call `listener(language)` now that texts are in and after every switch of language.
  function onLanguage(listener) {
    listeners.push(listener);
    if (language) listener(language);
  }

  // A <select> of the languages; choosing one keeps it in the `lang` cookie (a year) and
  // reloads the texts without reloading the page.
  function languageSwitch() {
    const select = document.createElement("select");
    select.className = "language-switch";
    select.setAttribute("data-i18n-aria-label", "Language");
    select.setAttribute("aria-label", t("Language"));
    for (const [code, name] of Object.entries(LANGUAGES)) {
      const option = document.createElement("option");
      option.value = code;
      option.textContent = name;
      option.lang = code;
      select.append(option);
    }
    select.value = pageLanguage();
    select.addEventListener("change", () => {
      document.cookie = "lang=" + encodeURIComponent(select.value) +
        "; path=/; max-age=31536000; SameSite=Lax";
      const here = new URL(window.location.href);
      if (here.searchParams.has("lang")) {  // the query would win over the cookie on reload
        here.searchParams.delete("lang");
        window.history.replaceState(null, "", here.pathname + here.search + here.hash);
      }
      loadTexts(select.value);
    });
    return select;
  }

  const ready = new Promise(resolve => {
    const start = () => {
      for (const place of document.querySelectorAll("[data-language-switch]")) {
        if (!place.querySelector("select.language-switch")) place.append(languageSwitch());
      }
      loadTexts(queryLanguage() || cookieLanguage()).then(resolve);
    };
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
    else start();
  });

  window.I18n = {t, applyTexts, pageLanguage, languageSwitch, loadTexts, onLanguage, ready,
                 LANGUAGES};
  window.t = t;
  window.applyTexts = applyTexts;
  window.pageLanguage = pageLanguage;
})();
