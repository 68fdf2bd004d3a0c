// Package i18n is the service's languages: which ones the pages speak, how a
// request's language is matched, the message catalogues (go-i18n, one TOML file
// per language, CLDR plural rules) and the formatting of dates, numbers and money
// per language. docs/languages.md tells how the language is chosen and how a
// language is added.
package i18n

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// Default is the language of a request that names none we speak: the facility is
// in Spain.
const Default = "es"

// Languages are the languages the pages speak, the default first. Adding one:
// docs/languages.md#adding-a-language.
var Languages = []string{"es", "en", "de", "fr"}

// names are each language's name in itself (the language switcher).
var names = map[string]string{"es": "Español", "en": "English", "de": "Deutsch", "fr": "Français"}

// Name is a language's name written in that language ("Deutsch").
func Name(lang string) string { return names[lang] }

// Supported reports whether lang is one of Languages.
func Supported(lang string) bool {
	for _, l := range Languages {
		if l == lang {
			return true
		}
	}
	return false
}

var tags = func() []language.Tag {
	out := make([]language.Tag, len(Languages))
	for i, l := range Languages {
		out[i] = language.MustParse(l)
	}
	return out
}()

var matcher = language.NewMatcher(tags)

// Match is the language of Languages that best fits an Accept-Language header,
// "" when none fits (a header naming only languages we do not speak).
func Match(acceptLanguage string) string {
	if strings.TrimSpace(acceptLanguage) == "" {
		return ""
	}
	prefs, _, err := language.ParseAcceptLanguage(acceptLanguage)
	if err != nil || len(prefs) == 0 {
		return ""
	}
	_, idx, conf := matcher.Match(prefs...)
	if conf == language.No {
		return ""
	}
	return Languages[idx]
}

// The catalogues: every file locales/<part>.<lang>.toml holds texts of lang
// (active: the pages'; errors: the operations' coded messages).
//
//go:embed locales/*.toml
var localeFiles embed.FS

// filesOf are the catalogue files of lang.
func filesOf(lang string) []string {
	names, _ := fs.Glob(localeFiles, "locales/*."+lang+".toml")
	return names
}

var (
	bundleOnce sync.Once
	bundle     *i18n.Bundle
	bundleErr  error
	localizers map[string]*i18n.Localizer
)

func load() {
	bundle = i18n.NewBundle(language.Spanish)
	bundle.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	localizers = map[string]*i18n.Localizer{}
	for _, l := range Languages {
		for _, name := range filesOf(l) {
			if _, err := bundle.LoadMessageFileFS(localeFiles, name); err != nil {
				bundleErr = fmt.Errorf("i18n: load %s: %w", name, err)
				return
			}
		}
		localizers[l] = i18n.NewLocalizer(bundle, l)
	}
}

// Check loads the catalogues and reports the first error (start-up calls it, so
// that a broken catalogue stops the service instead of a page).
func Check() error {
	bundleOnce.Do(load)
	return bundleErr
}

// T is the text of key in lang, with args as alternating placeholder names and
// values ("Count", 3). A placeholder named Count also picks the plural form
// (CLDR rules of lang). A key missing from lang falls back to Spanish; a key
// missing everywhere is returned as is, so a slip shows rather than breaks a page
// (the catalogue tests catch it first).
func T(lang, key string, args ...any) string {
	bundleOnce.Do(load)
	if bundleErr != nil {
		return key
	}
	loc, ok := localizers[lang]
	if !ok {
		loc = localizers[Default]
	}
	cfg := &i18n.LocalizeConfig{MessageID: key}
	if len(args) > 0 {
		data := make(map[string]any, len(args)/2)
		for i := 0; i+1 < len(args); i += 2 {
			name := fmt.Sprint(args[i])
			data[name] = args[i+1]
			if name == "Count" {
				cfg.PluralCount = args[i+1]
			}
		}
		cfg.TemplateData = data
	}
	s, err := loc.Localize(cfg)
	if err != nil {
		if s != "" {
			return s
		}
		return key
	}
	return s
}

// Both is key's text in Spanish and, when lang is another language we speak,
// in lang after it ("Matrícula / Number plate"): the receipts and the entry
// document are Spanish documents with the booking's language beside each text
// (docs/languages.md#receipts-and-the-entry-document).
func Both(lang, key string, args ...any) string {
	return BothOf(lang, func(l string) string { return T(l, key, args...) })
}

// BothOf is Both for a text made of several: text written in Spanish and, when
// lang is another language we speak, in lang after it.
func BothOf(lang string, text func(lang string) string) string {
	es := text(Default)
	if lang == Default || !Supported(lang) {
		return es
	}
	return es + " / " + text(lang)
}

// Keys are the message keys of lang's catalogue, sorted; Raw is one message's
// forms as written in the file (tests compare catalogues with them).
func Keys(lang string) ([]string, error) {
	m, err := Raw(lang)
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys, nil
}

// Raw is lang's catalogue files read as key → text (a plural message's forms are
// joined with " | ", one form a field: other, one, ...). A key written in two
// files of lang is an error.
func Raw(lang string) (map[string]string, error) {
	names := filesOf(lang)
	if len(names) == 0 {
		return nil, fmt.Errorf("i18n: no catalogue of %q", lang)
	}
	m := map[string]any{}
	for _, name := range names {
		b, err := localeFiles.ReadFile(name)
		if err != nil {
			return nil, err
		}
		var part map[string]any
		if err := toml.Unmarshal(b, &part); err != nil {
			return nil, fmt.Errorf("i18n: %s: %w", name, err)
		}
		for k, v := range part {
			if _, dup := m[k]; dup {
				return nil, fmt.Errorf("i18n: %s: key %q written twice", name, k)
			}
			m[k] = v
		}
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		switch v := v.(type) {
		case string:
			out[k] = v
		case map[string]any:
			forms := make([]string, 0, len(v))
			for f, s := range v {
				forms = append(forms, f+": "+fmt.Sprint(s))
			}
			sort.Strings(forms)
			out[k] = strings.Join(forms, " | ")
		}
	}
	return out, nil
}

// Prefixed is every message of lang whose key starts with prefix, as written in
// the catalogue, placeholders unfilled (scripts get the texts they show this way,
// as a JSON object in the page, and fill {{.Name}} themselves); a key missing in
// lang has its Spanish text.
func Prefixed(lang, prefix string) map[string]string {
	es, err := Raw(Default)
	if err != nil {
		return nil
	}
	own, err := Raw(lang)
	if err != nil {
		own = es
	}
	out := map[string]string{}
	for k, v := range es {
		if !strings.HasPrefix(k, prefix) {
			continue
		}
		if o, ok := own[k]; ok {
			v = o
		}
		out[strings.TrimPrefix(k, prefix)] = v
	}
	return out
}
