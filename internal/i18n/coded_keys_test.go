package i18n_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"parking/internal/i18n"
)

// codedKey finds a whole catalogue key of a refusal written in the Go sources
// ("err.account.bad_credentials", then a comma, a parenthesis or the line's end);
// a key built by adding a suffix is not whole and is left to its own tests.
var codedKey = regexp.MustCompile(`"(err\.[a-z_]+\.[a-z0-9_]+)"\s*(?:[,)]|$)`)

// Every refusal's key the code uses has its text in the Spanish catalogue (and so,
// by the catalogue test, in every language): a missing key would show as itself.
func TestCodedKeysHaveTheirTexts(t *testing.T) {
	es, err := i18n.Raw(i18n.Default)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	err = filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, line := range strings.Split(string(b), "\n") {
			for _, m := range codedKey.FindAllStringSubmatch(line, -1) {
				seen++
				if _, ok := es[m[1]]; !ok {
					t.Errorf("%s: key %q has no text in the catalogue", path, m[1])
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 100 {
		t.Fatalf("found %d coded keys in the sources: the scan is broken", seen)
	}
}
