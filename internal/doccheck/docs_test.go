// Package doccheck has no code: its tests hold README.md, CONTRIBUTING.md
// and docs/ to the code, so that the docs cannot drift from it: the flags
// table to the binary's -h, each bound to the constant or setting that
// makes it (and the file and names its row gives to that file), the rules
// table to the engine, the fault lab to fixtures/, the
// layout table to the packages, and every link between the docs to a
// heading that exists.
package doccheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// root is the repository, from this package's folder.
const root = "../.."

// docs are the files these tests read, relative to root.
var docs = []string{"README.md", "CONTRIBUTING.md", "docs/agent-analysis.md", "docs/test-kit.md"}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// section is the text under the heading whose line is exactly heading, up
// to the next heading of the same or a higher level.
func section(t *testing.T, doc, heading string) string {
	t.Helper()
	level := strings.IndexByte(heading, ' ')
	lines := strings.Split(doc, "\n")
	for i, l := range lines {
		if l != heading {
			continue
		}
		var out []string
		for _, m := range lines[i+1:] {
			if n := headingLevel(m); n > 0 && n <= level {
				break
			}
			out = append(out, m)
		}
		return strings.Join(out, "\n")
	}
	t.Fatalf("no heading %q", heading)
	return ""
}

// headingLevel is the number of #s of a Markdown heading line, or 0.
func headingLevel(line string) int {
	n := len(line) - len(strings.TrimLeft(line, "#"))
	if n == 0 || n > 6 || !strings.HasPrefix(line[n:], " ") {
		return 0
	}
	return n
}

// rows are a section's table rows as trimmed cells, header and separator
// left out.
func rows(text string) [][]string {
	var out [][]string
	header := true
	for _, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(l, "|") {
			header = true // a new table starts with its header
			continue
		}
		if header {
			header = false
			continue
		}
		if strings.HasPrefix(l, "|---") {
			continue
		}
		cells := strings.Split(strings.Trim(l, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		out = append(out, cells)
	}
	return out
}

// unquote strips one pair of backticks.
func unquote(cell string) string { return strings.TrimSuffix(strings.TrimPrefix(cell, "`"), "`") }

var (
	fence    = regexp.MustCompile("(?s)```.*?```")
	codeSpan = regexp.MustCompile("`[^`]*`")
	// dated is wording that ties a statement to a moment of development.
	dated = regexp.MustCompile(`(?i)\b(now|was|were|today|yesterday|this (morning|afternoon|round|session)|last round|no longer|used to|until commit|since commit)\b`)
	// hexWord may be a commit hash: in prose, one is history; in a code
	// span it pins a version.
	hexWord = regexp.MustCompile(`\b[0-9a-f]{7,40}\b`)
)

// prose is a document without its code blocks and code spans: the words
// people read as statements.
func prose(doc string) string { return codeSpan.ReplaceAllString(fence.ReplaceAllString(doc, ""), "") }

// The docs describe the code as it is: no development history.
func TestNoDatedWording(t *testing.T) {
	for _, path := range docs {
		for _, line := range strings.Split(prose(read(t, path)), "\n") {
			if m := dated.FindString(line); m != "" {
				t.Errorf("%s: %q, dated wording: %s", path, m, strings.TrimSpace(line))
			}
			for _, h := range hexWord.FindAllString(line, -1) {
				if strings.ContainsAny(h, "0123456789") && strings.ContainsAny(h, "abcdef") {
					t.Errorf("%s: %q looks like a commit hash: pin a version in a code span, never tell history: %s", path, h, strings.TrimSpace(line))
				}
			}
		}
	}
}

var link = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// anchors are a Markdown file's heading anchors, as GitHub makes them.
func anchors(doc string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, l := range strings.Split(fence.ReplaceAllString(doc, ""), "\n") {
		n := headingLevel(l)
		if n == 0 {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(l[n:])) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
				b.WriteRune(r)
			}
		}
		a := b.String()
		if k := seen[a]; k > 0 {
			out[a+"-"+strconv.Itoa(k)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

// Every link between the docs reaches a file, and a heading of it.
func TestLinksReachTheirHeadings(t *testing.T) {
	for _, path := range docs {
		doc := read(t, path)
		for _, m := range link.FindAllStringSubmatch(fence.ReplaceAllString(doc, ""), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			resolved := path
			if file != "" {
				resolved = filepath.ToSlash(filepath.Join(filepath.Dir(path), file))
				if _, err := os.Stat(filepath.Join(root, resolved)); err != nil {
					t.Errorf("%s: link %q: %v", path, target, err)
					continue
				}
			}
			if frag == "" {
				continue
			}
			if !strings.HasSuffix(resolved, ".md") {
				t.Errorf("%s: link %q: an anchor into a file that is not Markdown", path, target)
				continue
			}
			if !anchors(read(t, resolved))[frag] {
				t.Errorf("%s: link %q: %s has no heading #%s", path, target, resolved, frag)
			}
		}
	}
}
