package storagetest

import (
	"bufio"
	"fmt"
	"net"
	"os/exec"
	"strings"
	"testing"
)

// Server is a redis-server process of the test's own, started by StartServer.
type Server struct {
	Addr string // host:port on the loopback interface

	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited and its output is drained
}

// StartServer starts redis-server on the loopback port with its files in dir and an
// append-only file synced on every write, so that a kill loses nothing acknowledged; extra,
// given last, may change any setting. It returns once the server accepts connections and
// kills it when the test ends; starting it again on the same port and dir brings back its
// data. It skips the test when redis-server is not installed.
func StartServer(t testing.TB, port int, dir string, extra ...string) *Server {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redis-server not installed")
	}
	args := append([]string{"--port", fmt.Sprint(port), "--bind", "127.0.0.1",
		"--dir", dir, "--save", "", "--appendonly", "yes", "--appendfsync", "always", "--daemonize", "no"}, extra...)
	cmd := exec.Command(bin, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	srv := &Server{Addr: fmt.Sprintf("127.0.0.1:%d", port), cmd: cmd, done: make(chan struct{})}
	ready := make(chan struct{})
	var log strings.Builder
	go func() {
		defer close(srv.done)
		sc := bufio.NewScanner(out)
		waiting := true
		for sc.Scan() {
			if waiting {
				log.WriteString(sc.Text() + "\n")
				if strings.Contains(sc.Text(), "Ready to accept connections") {
					close(ready)
					waiting = false
				}
			}
		}
		_ = cmd.Wait()
	}()
	select {
	case <-ready:
	case <-srv.done:
		t.Fatalf("redis-server exited before it was ready:\n%s", log.String())
	}
	t.Cleanup(srv.Kill)
	return srv
}

// StartScratchServer starts a redis-server that keeps nothing on disk, with the extra
// settings, on a free port (see StartServer), and returns its address.
func StartScratchServer(t testing.TB, extra ...string) string {
	t.Helper()
	args := append([]string{"--appendonly", "no", "--save", ""}, extra...)
	return StartServer(t, FreePort(t), t.TempDir(), args...).Addr
}

// Kill stops the server abruptly (SIGKILL) and waits until it is gone. It is idempotent.
func (s *Server) Kill() {
	_ = s.cmd.Process.Kill()
	<-s.done
}

// FreePort returns a loopback TCP port that was free a moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
