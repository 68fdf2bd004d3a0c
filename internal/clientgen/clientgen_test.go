package clientgen_test

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"parking/internal/clientgen"
	"parking/internal/clock/clocktest"
	"parking/internal/store"
	"parking/internal/storetest"
	"parking/internal/webtest"
)

// tools returns the generator's and tsc's commands and node. They are installed by
// .ci/run (or here, with npm, under PARKING_TEST_CLIENTGEN=required); without them
// the test skips, or fails when required.
func tools(t *testing.T) (gen, tsc, node string) {
	t.Helper()
	required := os.Getenv("PARKING_TEST_CLIENTGEN") == "required"
	dir := clientgen.Dir()
	gen = filepath.Join(dir, "node_modules", ".bin", "openapi-ts")
	tsc = filepath.Join(dir, "node_modules", ".bin", "tsc")
	fail := func(format string, args ...any) {
		t.Helper()
		if required {
			t.Fatalf("PARKING_TEST_CLIENTGEN=required: "+format, args...)
		}
		t.Skipf("generated client test skipped (set PARKING_TEST_CLIENTGEN=required to run it): "+format, args...)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		fail("node is missing (apt-get install -y nodejs npm)")
	}
	if !installed(dir) {
		if !required {
			fail("the generator is not installed in %s", dir)
		}
		npm, err := exec.LookPath("npm")
		if err != nil {
			fail("npm is missing (apt-get install -y npm)")
		}
		cmd := exec.Command(npm, "install", "--no-save", "--no-audit", "--no-fund", "--prefix", dir,
			"@hey-api/openapi-ts@"+clientgen.GeneratorVersion, "typescript@"+clientgen.TypeScriptVersion)
		if out, err := cmd.CombinedOutput(); err != nil {
			fail("npm install: %v\n%s", err, out)
		}
		if !installed(dir) {
			fail("npm install left no generator in %s", dir)
		}
	}
	return gen, tsc, node
}

// installed: both tools are there, at the pinned versions.
func installed(dir string) bool {
	for pkg, version := range map[string]string{"@hey-api/openapi-ts": clientgen.GeneratorVersion, "typescript": clientgen.TypeScriptVersion} {
		b, err := os.ReadFile(filepath.Join(dir, "node_modules", pkg, "package.json"))
		var p struct{ Version string }
		if err != nil || json.Unmarshal(b, &p) != nil || p.Version != version {
			return false
		}
	}
	return true
}

func run(t *testing.T, dir string, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s\n%s", filepath.Base(name), strings.Join(args, " "), err, out, stderr.String())
	}
	return out
}

type answer struct {
	Status int            `json:"status"`
	Data   map[string]any `json:"data"`
	Error  any            `json:"error"`
}

// docs/partners.md#a-generated-client: a client generated from GET /api/openapi.json
// books, reads and cancels through the partner API with a partner's key.
func TestGeneratedClientBooksAndCancels(t *testing.T) {
	gen, tsc, node := tools(t)
	storetest.Each(t, func(t *testing.T, d store.Dialect) {
		e := webtest.NewAdminEnv(t, d)
		status, out := e.JSON("POST", "/admin/partners", map[string]any{"name": "Agencia Generada", "commission_percent": 10, "active": true})
		if status != 201 {
			t.Fatalf("create partner: %d %v", status, out)
		}
		pid := int64(out["partner"].(map[string]any)["id"].(float64))
		status, out = e.JSON("POST", "/admin/partners/"+webtest.Itoa(pid)+"/keys", nil)
		key, _ := out["key"].(string)
		if status != 201 || !strings.HasPrefix(key, "pk_") {
			t.Fatalf("create key: %d %v", status, out)
		}

		// The document as the service serves it, for the generator.
		work := t.TempDir()
		resp, err := http.Get(e.A.URL + "/api/openapi.json")
		if err != nil {
			t.Fatal(err)
		}
		doc, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("GET /api/openapi.json: %d %v", resp.StatusCode, err)
		}
		for name, b := range map[string][]byte{"openapi.json": doc, "main.ts": readTestdata(t, "main.ts"), "tsconfig.json": readTestdata(t, "tsconfig.json")} {
			if err := os.WriteFile(filepath.Join(work, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		run(t, work, gen, "-i", "openapi.json", "-o", "client")
		run(t, work, tsc, "-p", "tsconfig.json")

		entry := clocktest.Day(20, 10, 0)
		printed := run(t, work, node, filepath.Join("js", "main.js"), e.A.URL, key, "GEN-0001",
			entry.Format(time.RFC3339), entry.AddDate(0, 0, 3).Format(time.RFC3339))
		var got struct{ Booked, Read, Cancelled answer }
		if err := json.Unmarshal(printed, &got); err != nil {
			t.Fatalf("the program printed %s: %v", printed, err)
		}
		channel := "partner:" + webtest.Itoa(pid)
		booked, _ := got.Booked.Data["data"].(map[string]any)
		if got.Booked.Status != 201 || booked["partner_reference"] != "GEN-0001" || booked["channel"] != channel ||
			booked["reference"] == nil || booked["reference"] == "" {
			t.Fatalf("booked: %+v", got.Booked)
		}
		read, _ := got.Read.Data["reservation"].(map[string]any)
		if got.Read.Status != 200 || read["reference"] != booked["reference"] || read["channel"] != channel || read["status"] != "PENDIENTE" {
			t.Fatalf("read: %+v", got.Read)
		}
		if c := got.Cancelled; c.Status != 200 || c.Data["status"] != "CANCELADA" || c.Data["reference"] != booked["reference"] {
			t.Fatalf("cancelled: %+v", c)
		}

		// The staff's record shows the booking, from the partner, cancelled.
		id := int64(booked["id_reservation"].(float64))
		_, out = e.JSON("GET", "/admin/reservations/details/"+webtest.Itoa(id), nil)
		rec, _ := out["reservation"].(map[string]any)
		if rec["channel"] != channel || rec["partner_reference"] != "GEN-0001" || rec["status"] != "CANCELADA" {
			t.Fatalf("staff record %v", rec)
		}
	})
}

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
