package notify_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"parking/internal/i18n"
	"parking/internal/notify"
	"parking/internal/reservation"
	"parking/internal/store"
)

// The n8n workflow the operator imports (docs/n8n/parking-emails.json; n8n itself
// cannot run here, so its file is checked structurally): a Webhook node, a Code
// node checking X-Parking-Signature, a Switch by type with a branch for every
// notification type the service can send (notify.Kinds), each branch a Switch by
// the payload's idioma with an HTML email in every language the service speaks
// (i18n.Languages; Spanish on the fallback output, for any other idioma:
// docs/n8n.md#languages), and templates that read only fields the payload of
// their type carries. The field
// sets come from the real payload builders (notify.Build), and from the golden
// payloads in testdata for kinds Build does not make.
func TestN8nWorkflow(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "n8n", "parking-emails.json"))
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Nodes []struct {
			Name        string         `json:"name"`
			Type        string         `json:"type"`
			TypeVersion float64        `json:"typeVersion"`
			Parameters  map[string]any `json:"parameters"`
		} `json:"nodes"`
		Connections map[string]struct {
			Main [][]struct {
				Node string `json:"node"`
			} `json:"main"`
		} `json:"connections"`
	}
	if err := json.Unmarshal(raw, &wf); err != nil {
		t.Fatalf("the workflow is not JSON: %v", err)
	}
	byName := map[string]int{}
	var webhook, verify, switchNode string
	for i, n := range wf.Nodes {
		if _, dup := byName[n.Name]; dup {
			t.Errorf("two nodes named %q", n.Name)
		}
		byName[n.Name] = i
		switch n.Type {
		case "n8n-nodes-base.webhook":
			webhook = n.Name
			if n.Parameters["httpMethod"] != "POST" || n.Parameters["responseMode"] != "responseNode" {
				t.Errorf("webhook node: %v, want POST answered by a Respond node", n.Parameters)
			}
			if opts, _ := n.Parameters["options"].(map[string]any); opts["rawBody"] != true {
				t.Error("webhook node must keep the raw body: the signature is over its bytes")
			}
		case "n8n-nodes-base.code":
			verify = n.Name
			code, _ := n.Parameters["jsCode"].(string)
			for _, want := range []string{"x-parking-signature", "createHmac('sha256'", "timingSafeEqual", "sha256="} {
				if !strings.Contains(code, want) {
					t.Errorf("signature check lacks %q", want)
				}
			}
		case "n8n-nodes-base.switch":
			if routesOn(n.Parameters) == "={{ $json.type }}" {
				switchNode = n.Name
			}
		}
	}
	next := func(from string, out int) []string {
		c, ok := wf.Connections[from]
		if !ok || out >= len(c.Main) {
			return nil
		}
		var names []string
		for _, to := range c.Main[out] {
			names = append(names, to.Node)
		}
		return names
	}
	for from, c := range wf.Connections {
		if _, ok := byName[from]; !ok {
			t.Errorf("connection from unknown node %q", from)
		}
		for _, outs := range c.Main {
			for _, to := range outs {
				if _, ok := byName[to.Node]; !ok {
					t.Errorf("connection from %q to unknown node %q", from, to.Node)
				}
			}
		}
	}
	if webhook == "" || verify == "" || switchNode == "" {
		t.Fatalf("want a webhook, a code and a switch node; got %q, %q, %q", webhook, verify, switchNode)
	}
	if got := next(webhook, 0); !slices.Equal(got, []string{verify}) {
		t.Errorf("webhook goes to %v, want the signature check", got)
	}
	// The check feeds an IF whose true output is the switch and whose false output
	// answers 401.
	gate := next(verify, 0)
	if len(gate) != 1 || wf.Nodes[byName[gate[0]]].Type != "n8n-nodes-base.if" {
		t.Fatalf("the signature check goes to %v, want an IF node", gate)
	}
	if got := next(gate[0], 0); !slices.Equal(got, []string{switchNode}) {
		t.Errorf("a valid signature goes to %v, want %q", got, switchNode)
	}
	if refused := next(gate[0], 1); len(refused) != 1 || wf.Nodes[byName[refused[0]]].Type != "n8n-nodes-base.respondToWebhook" ||
		respondCode(wf.Nodes[byName[refused[0]]].Parameters) != 401 {
		t.Errorf("an invalid signature goes to %v, want a 401 answer", refused)
	}

	// The switch's outputs, in order, by type.
	sw := wf.Nodes[byName[switchNode]].Parameters
	rules, _ := sw["rules"].(map[string]any)["values"].([]any)
	branch := map[string][]string{} // type → its email nodes, one per language
	for i, r := range rules {
		rule := r.(map[string]any)
		conds := rule["conditions"].(map[string]any)["conditions"].([]any)
		c := conds[0].(map[string]any)
		typ, _ := c["rightValue"].(string)
		if c["leftValue"] != "={{ $json.type }}" || rule["outputKey"] != typ {
			t.Errorf("switch rule %d does not route on $json.type: %v", i, rule)
		}
		to := next(switchNode, i)
		if len(to) != 1 || wf.Nodes[byName[to[0]]].Type != "n8n-nodes-base.switch" || routesOn(wf.Nodes[byName[to[0]]].Parameters) != "={{ $json.body.idioma }}" {
			t.Errorf("switch output %s goes to %v, want one Switch by $json.body.idioma", typ, to)
			continue
		}
		// The language switch: one output per language but Spanish, in rule order,
		// and Spanish on the fallback output (an idioma the workflow does not know).
		langSwitch := wf.Nodes[byName[to[0]]].Parameters
		emails := map[string]string{}
		langRules, _ := langSwitch["rules"].(map[string]any)["values"].([]any)
		for j, lr := range langRules {
			rule := lr.(map[string]any)
			c := rule["conditions"].(map[string]any)["conditions"].([]any)[0].(map[string]any)
			lang, _ := c["rightValue"].(string)
			if rule["outputKey"] != lang || lang == i18n.Default {
				t.Errorf("%s: rule %d routes idioma %q to output %v", to[0], j, lang, rule["outputKey"])
			}
			if out := next(to[0], j); len(out) == 1 {
				emails[lang] = out[0]
			}
		}
		if fb, _ := langSwitch["options"].(map[string]any)["fallbackOutput"].(string); fb != "extra" {
			t.Errorf("%s: an unknown idioma must fall back to Spanish (the fallback output)", to[0])
		} else if out := next(to[0], len(langRules)); len(out) == 1 {
			emails[i18n.Default] = out[0]
		}
		spanishSubject := ""
		if es, ok := emails[i18n.Default]; ok {
			spanishSubject, _ = wf.Nodes[byName[es]].Parameters["subject"].(string)
		}
		for _, lang := range i18n.Languages {
			name, ok := emails[lang]
			if !ok || wf.Nodes[byName[name]].Type != "n8n-nodes-base.emailSend" {
				t.Errorf("%s has no email in %s", typ, lang)
				continue
			}
			branch[typ] = append(branch[typ], name)
			email := wf.Nodes[byName[name]]
			if email.Parameters["emailFormat"] != "html" || !strings.Contains(email.Parameters["html"].(string), `lang="`+lang+`"`) {
				t.Errorf("%s: want an HTML email with lang=%q", name, lang)
			}
			if subj, _ := email.Parameters["subject"].(string); lang != i18n.Default && subj == spanishSubject {
				t.Errorf("%s: the subject is the Spanish one (%s)", name, subj)
			}
			if after := next(name, 0); len(after) != 1 || wf.Nodes[byName[after[0]]].Type != "n8n-nodes-base.respondToWebhook" ||
				respondCode(wf.Nodes[byName[after[0]]].Parameters) != 200 {
				t.Errorf("%s is followed by %v, want the 200 answer (the service then marks it sent)", name, after)
			}
		}
		if len(emails) != len(i18n.Languages) {
			t.Errorf("%s: emails for %v, want exactly %v", typ, sortedKeys(setOf(emails)), i18n.Languages)
		}
	}
	if fb, _ := sw["options"].(map[string]any)["fallbackOutput"].(string); fb != "extra" || len(next(switchNode, len(rules))) != 1 {
		t.Error("an unknown type must reach an answer too (the fallback output)")
	}

	// Every type the service sends has its branch, and each template names only
	// fields of its type's payload.
	fields := payloadFields(t)
	for _, k := range notify.Kinds {
		names, ok := branch[string(k)]
		if !ok {
			t.Errorf("notification type %s has no branch in the workflow", k)
			continue
		}
		have, ok := fields[string(k)]
		if !ok {
			t.Errorf("type %s: no payload to check its template against (notify.Build makes none and testdata has no %s*.json)", k, k)
			continue
		}
		if !have["idioma"] {
			t.Errorf("type %s: the payload carries no idioma to choose its email's language by", k)
		}
		for _, name := range names {
			p := wf.Nodes[byName[name]].Parameters
			used := map[string]bool{}
			for _, key := range []string{"toEmail", "subject", "html"} {
				s, _ := p[key].(string)
				for _, m := range bodyRef.FindAllStringSubmatch(s, -1) {
					used[m[1]] = true
				}
			}
			for _, path := range mustRead[string(k)] {
				if !used[path] {
					t.Errorf("%s (%s) does not show $json.body.%s", name, k, path)
				}
			}
			if !used["cliente.email"] && !used["customer.email"] {
				t.Errorf("%s: the recipient is not the payload's email (%v)", name, p["toEmail"])
			}
			for _, path := range sortedKeys(used) {
				if !have[path] {
					t.Errorf("%s (%s) reads $json.body.%s, which that payload does not carry; it has %v", name, k, path, sortedKeys(have))
				}
			}
		}
	}
	for typ := range branch {
		if !notify.Kind(typ).Valid() {
			t.Logf("the workflow also handles %s, which this version of the service does not send", typ)
		}
	}
}

// mustRead are the fields an email must show: the entry email states whether the
// keys were handed over and links the entry document (docs/entry-document.md).
var mustRead = map[string][]string{
	string(notify.VehicleEntry): {"llaves", "justificante_url"},
}

// bodyRef finds the payload fields a template reads: $json.body.a.b gives "a.b".
var bodyRef = regexp.MustCompile(`\$json\.body\.([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)`)

// routesOn is the value a Switch node's first rule compares ("={{ $json.type }}").
func routesOn(p map[string]any) string {
	rules, _ := p["rules"].(map[string]any)
	values, _ := rules["values"].([]any)
	if len(values) == 0 {
		return ""
	}
	conds, _ := values[0].(map[string]any)["conditions"].(map[string]any)
	list, _ := conds["conditions"].([]any)
	if len(list) == 0 {
		return ""
	}
	left, _ := list[0].(map[string]any)["leftValue"].(string)
	return left
}

func setOf(m map[string]string) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

func respondCode(p map[string]any) int {
	opts, _ := p["options"].(map[string]any)
	c, _ := opts["responseCode"].(float64)
	return int(c)
}

// payloadFields returns, per type, every field path its payloads carry ("a",
// "a.b"; an array's elements under the array's path), from the real builders with
// every optional part present (the original stay of a modification, a paid
// invoice), and from the golden payloads in testdata.
func payloadFields(t *testing.T) map[string]map[string]bool {
	t.Helper()
	out := map[string]map[string]bool{}
	addDoc := func(body []byte) {
		var doc map[string]any
		if err := json.Unmarshal(body, &doc); err != nil {
			t.Fatalf("payload is not a JSON object: %v", err)
		}
		typ, _ := doc["type"].(string)
		if out[typ] == nil {
			out[typ] = map[string]bool{}
		}
		flatten(doc, "", out[typ])
	}
	before := subject()
	after := subject()
	exit := after.Reservation.Exit.Add(24 * time.Hour)
	after.Reservation.Exit = &exit
	paid := subject()
	paid.Reservation.Status, paid.Reservation.IsPaid = reservation.Finalized, true
	method := reservation.PaymentMethod("TARJETA")
	paid.Reservation.PaymentMethod = &method
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	for _, k := range notify.Kinds {
		sub, orig := subject(), (*store.NotificationSubject)(nil)
		switch k {
		case notify.ReservationModified:
			sub, orig = after, &before
		case notify.Invoice:
			sub = paid
		}
		if body, err := notify.Build(k, sub, orig, at, madrid); err == nil {
			addDoc(body)
		}
	}
	golden, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, g := range golden {
		body, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		addDoc(body)
	}
	return out
}

func flatten(v any, path string, into map[string]bool) {
	if path != "" {
		into[path] = true
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			p := k
			if path != "" {
				p = path + "." + k
			}
			flatten(e, p, into)
		}
	case []any:
		for _, e := range x {
			flatten(e, path, into)
		}
	}
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
