package specfile

import "strings"

// split cuts one physical script line into simple commands, each with the operators before and
// after it, and queues the here-documents the line opens (their bodies start on the next line).
// It knows quoting, backslashes, comments, $(…), `…` and redirections enough not to mistake
// them for separators; it is not a shell parser.
func (sc *shellScan) split(line string) []command {
	var (
		cmds   []command
		cur    command
		word   strings.Builder
		inWord bool
		before = sc.pendingOp
	)
	sc.pendingOp = ""
	flush := func() {
		if inWord {
			cur.words = append(cur.words, word.String())
			word.Reset()
			inWord = false
		}
	}
	end := func(op string) {
		flush()
		if len(cur.words) > 0 {
			cur.before, cur.after = before, op
			cmds = append(cmds, cur)
			before = op
		} else if op != "" {
			before = op
		}
		cur = command{}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		next := at(line, i+1)
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			flush()
		case c == '\\':
			inWord = true
			if i+1 < len(line) {
				word.WriteByte(next)
				i++
			}
		case c == '\'' || c == '`':
			inWord = true
			j := strings.IndexByte(line[i+1:], c)
			if j < 0 {
				j = len(line) - i - 1
			}
			word.WriteString(line[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			inWord = true
			for i++; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' && i+1 < len(line) {
					i++
				}
				word.WriteByte(line[i])
			}
		case c == '$' && next == '(':
			inWord = true
			e := matchChar(line, i+1, '(', ')')
			if e < 0 {
				e = len(line)
			}
			word.WriteString(line[i:e])
			i = e - 1
		case c == '#' && !inWord:
			i = len(line)
		case c == ';':
			if next == ';' {
				i++
			}
			end(";")
		case c == '&' && next == '&':
			end("&&")
			i++
		case c == '&' && (next == '>' || i > 0 && (line[i-1] == '>' || line[i-1] == '<')):
			inWord = true
			word.WriteByte(c)
		case c == '&':
			end("&")
		case c == '|' && next == '|':
			end("||")
			i++
		case c == '|':
			end("|")
		case c == '(' || c == ')':
			flush()
			cur.words = append(cur.words, string(c))
		case c == '<' && next == '<' && at(line, i+2) != '<':
			flush()
			i = sc.heredoc(line, i+2)
		default:
			inWord = true
			word.WriteByte(c)
		}
	}
	end("")
	if before == "&&" || before == "||" || before == "|" {
		sc.pendingOp = before // "a &&" at the end of a line continues on the next one
	}
	return cmds
}

// heredoc reads the delimiter of a "<<WORD" or "<<-WORD" starting at line[i] and queues the
// here-document; it returns the index of the delimiter's last byte.
func (sc *shellScan) heredoc(line string, i int) int {
	d := heredoc{}
	if at(line, i) == '-' {
		d.stripTab = true
		i++
	}
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	var w strings.Builder
	for ; i < len(line); i++ {
		c := line[i]
		if c == ' ' || c == '\t' || c == ';' || c == '&' || c == '|' || c == '<' || c == '>' || c == ')' {
			break
		}
		if c == '\'' || c == '"' || c == '\\' {
			continue
		}
		w.WriteByte(c)
	}
	if d.end = w.String(); d.end != "" {
		sc.heredocs = append(sc.heredocs, d)
	}
	return i - 1
}
