package main

import (
	"bufio"
	"bytes"
	"net"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestParseStat(t *testing.T) {
	stat := "4242 (reversi bot) (x)) S 1 4242 4242 0 -1 4194560 1234 0 0 0 250 175 0 0 20 0 9 0 100 1000 200\n"
	name, d, err := parseStat([]byte(stat))
	if err != nil || name != "reversi bot) (x)" || d != 4250*time.Millisecond {
		t.Errorf("parseStat = %q, %v, %v; want the name with its parentheses and 4.25s", name, d, err)
	}
	for _, bad := range []string{"", "4242 reversibot S 1", "1 (a) S 1 2", "1 (a) S 1 2 3 4 5 6 7 8 9 10 x 0", "1 (a) S 1 2 3 4 5 6 7 8 9 10 -1 0"} {
		if _, _, err := parseStat([]byte(bad)); err == nil {
			t.Errorf("parseStat(%q) accepted", bad)
		}
	}
	// This process reads its own figure.
	name, d, err = procCPU(os.Getpid())
	if err != nil || name == "" || d < 0 {
		t.Errorf("procCPU(self) = %q, %v, %v", name, d, err)
	}
}

func TestParsePIDs(t *testing.T) {
	if got, err := parsePIDs(" 12, 7,,"); err != nil || !slices.Equal(got, []int{12, 7}) {
		t.Errorf("parsePIDs = %v, %v", got, err)
	}
	for _, bad := range []string{"x", "0", "-3", "1,2x"} {
		if _, err := parsePIDs(bad); err == nil {
			t.Errorf("parsePIDs(%q) accepted", bad)
		}
	}
	if _, err := parseFlags([]string{"-pids", "12"}, &bytes.Buffer{}); err == nil {
		t.Error("-pids without -external accepted")
	}
	if c, err := parseFlags([]string{"-external", "-pids", "12,13"}, &bytes.Buffer{}); err != nil || !slices.Equal(c.PIDs, []int{12, 13}) {
		t.Errorf("-external -pids 12,13 = %v, %v", c.PIDs, err)
	}
}

// TestPeers starts a process that connects to a listener of this test and checks that
// peers finds it, and only it.
func TestPeers(t *testing.T) {
	if os.Getenv("REVERSILOAD_PEER") != "" {
		return // the child: see helperPeer
	}
	if _, err := os.Stat("/proc/net/tcp"); err != nil {
		t.Skip("no /proc/net/tcp")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	cmd := exec.Command(os.Args[0], "-test.run=^TestPeerHelper$")
	cmd.Env = append(os.Environ(), "REVERSILOAD_PEER="+strconv.Itoa(port))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close() // the child exits when its stdin closes
		_ = cmd.Wait()
	}()
	conn, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// The child holds its connection open until its stdin closes, so it is there to be found.
	got, err := peers(port)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []int{cmd.Process.Pid}) {
		t.Errorf("peers(%d) = %v, want [%d]", port, got, cmd.Process.Pid)
	}
	if got, _ := peers(freeLoopbackPort(t)); len(got) != 0 {
		t.Errorf("peers of an unused port = %v", got)
	}
}

// TestPeerHelper is the child of TestPeers: it connects to the port it is given and holds
// the connection until its stdin closes. Run on its own it does nothing.
func TestPeerHelper(t *testing.T) {
	port := os.Getenv("REVERSILOAD_PEER")
	if port == "" {
		return
	}
	c, err := net.Dial("tcp", "127.0.0.1:"+port)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n') // until EOF
}

func freeLoopbackPort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func TestConnectedTo(t *testing.T) {
	table := `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 111 1 0000000000000000 100 0 0 10 0
   1: 0100007F:D2F0 0100007F:1F90 01 00000000:00000000 00:00000000 00000000     0        0 222 1 0000000000000000 20 4 30 10 -1
   2: 0100007F:1F90 0100007F:D2F0 01 00000000:00000000 00:00000000 00000000     0        0 333 1 0000000000000000 20 4 30 10 -1
   3: 0100007F:D2F1 0100007F:1F90 06 00000000:00000000 00:00000000 00000000     0        0 444 1 0000000000000000 20 4 30 10 -1
`
	f, err := os.CreateTemp(t.TempDir(), "tcp")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(table); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	got := connectedTo(f, 0x1F90)
	if len(got) != 1 || !got["222"] {
		t.Errorf("connectedTo(8080) = %v, want only the established client socket 222", got)
	}
}

// TestPrintCPU checks the CPU table of a run with bot processes.
func TestPrintCPU(t *testing.T) {
	r := Result{Elapsed: 2 * time.Second, PeopleMoves: 1000, CPU: 500 * time.Millisecond,
		BotCPU:   []ProcCPU{{PID: 42, Name: "reversibot", CPU: 1500 * time.Millisecond}},
		RedisCPU: 300 * time.Millisecond}
	var b strings.Builder
	r.printCPU(&b)
	out := b.String()
	for _, want := range [][]string{
		{"this process (fake Bot API + players)", "0.25", "500µs"},
		{"bot pid 42 (reversibot)", "0.75", "1500µs"},
		{"redis-server", "0.15", "300µs"},
		{"total (of ", "1.15", "2300µs"},
	} {
		if !slices.ContainsFunc(strings.Split(out, "\n"), func(line string) bool {
			return strings.HasPrefix(line, "  "+want[0]) && slices.Equal(strings.Fields(line)[len(strings.Fields(line))-2:], want[1:])
		}) {
			t.Errorf("CPU table lacks a row %q:\n%s", want, out)
		}
	}
	// The header's "cores" and "per move" end where the figures under them end.
	lines := strings.Split(out, "\n")
	head, row := lines[0], lines[1]
	if strings.Index(head, "cores")+len("cores") != strings.Index(row, "0.25")+len("0.25") || len(head) != len(row)-len("µs")+2 {
		t.Errorf("header out of line with the rows:\n%s", out)
	}
	r.BotCPU, r.RedisCPU, r.InProcess = nil, 0, true
	b.Reset()
	r.printCPU(&b)
	if out := b.String(); !strings.Contains(out, "this process (bots + fake API + players)") || strings.Contains(out, "see -pids") || !strings.Contains(out, "redis-server (unknown)") {
		t.Errorf("in-process CPU table:\n%s", out)
	}
}
