package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The README's configuration table lists every setting with its flag and default,
// so a newcomer finds each one there.
func TestREADMEListsEverySetting(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	for _, s := range settings {
		row := "| `" + s.env + "` | `--" + s.flag + "` |"
		combined := strings.Contains(readme, "`"+s.env+"`") && strings.Contains(readme, "`--"+s.flag+"`")
		if !strings.Contains(readme, row) && !combined {
			t.Errorf("README.md does not list %s (--%s) in its configuration table", s.env, s.flag)
		}
	}
	for _, v := range []string{"GOGC", "GOMEMLIMIT"} {
		if !strings.Contains(readme, "`"+v+"`") {
			t.Errorf("README.md does not mention %s", v)
		}
	}
}
