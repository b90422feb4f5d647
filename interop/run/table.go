package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// Agent is a row of the agents table: a folder of interop/agents that
// serves AG-UI at Endpoint.
type Agent struct {
	Name     string
	Endpoint string // the path its AG-UI endpoint is at
}

// Case is a row of the cases table: what to ask one agent, and the verdict
// the kit must give.
type Case struct {
	Agent, Name string
	How         string   // check or proxy
	Args        []string // check's flags (proxy reads -input)
	Expect      []string // one verdict per run reported: ok, interrupted, or the rules broken, joined by +
	Line        int      // in the table file
}

func (c Case) String() string { return c.Agent + "/" + c.Name }

// readTable reads the two Markdown tables of path: the one headed
// "| agent | endpoint |" and the one headed "| agent | case |".
func readTable(path string) ([]Agent, []Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	var agents []Agent
	var cases []Case
	var header []string
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "|") {
			header = nil // a table ends at the first line that is not a row
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.Trim(strings.TrimSpace(cells[i]), "`")
		}
		switch {
		case header == nil:
			header = cells
			continue
		case strings.HasPrefix(cells[0], "---"):
			continue
		case len(cells) != len(header):
			return nil, nil, fmt.Errorf("%s:%d: %d cells, the header has %d", path, n, len(cells), len(header))
		}
		switch header[1] {
		case "endpoint":
			agents = append(agents, Agent{Name: cells[0], Endpoint: cells[1]})
		case "case":
			c, err := parseCase(header, cells)
			if err != nil {
				return nil, nil, fmt.Errorf("%s:%d: %w", path, n, err)
			}
			c.Line = n
			cases = append(cases, c)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, err
	}
	known := map[string]bool{}
	for _, a := range agents {
		known[a.Name] = true
	}
	for _, c := range cases {
		if !known[c.Agent] {
			return nil, nil, fmt.Errorf("%s:%d: agent %q is not in the agents table", path, c.Line, c.Agent)
		}
	}
	return agents, cases, nil
}

func parseCase(header, cells []string) (Case, error) {
	col := map[string]string{}
	for i, h := range header {
		col[h] = cells[i]
	}
	args, err := splitArgs(col["args"])
	if err != nil {
		return Case{}, err
	}
	c := Case{Agent: col["agent"], Name: col["case"], How: col["how"], Args: args, Expect: strings.Fields(col["expect"])}
	switch {
	case c.How != "check" && c.How != "proxy":
		return c, fmt.Errorf("how is %q: check or proxy", c.How)
	case len(c.Expect) == 0:
		return c, fmt.Errorf("case %s expects nothing", c.Name)
	}
	return c, nil
}

// splitArgs splits a cell into arguments as a shell would split words,
// with single quotes for one that holds spaces (-H 'Name: value').
func splitArgs(s string) ([]string, error) {
	var args []string
	var cur strings.Builder
	in, quoted := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted, in = !quoted, true
		case r == ' ' && !quoted:
			if in {
				args = append(args, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if quoted {
		return nil, fmt.Errorf("unclosed quote in %q", s)
	}
	if in {
		args = append(args, cur.String())
	}
	return args, nil
}

// flagValue is the value that follows name in args, or "".
func flagValue(args []string, name string) string {
	for i, a := range args {
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}
