package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The CPU of other processes (the bot processes under load) comes from Linux's /proc.

// userHZ is the unit of the CPU times in /proc/PID/stat: USER_HZ, 100 on every Linux the
// kernel's ABI promises it to user space (sysconf(_SC_CLK_TCK)).
const userHZ = 100

// proc is a process whose CPU a run reports.
type proc struct {
	PID  int
	Name string // its command name (comm), as /proc/PID/stat gives it
}

// procCPU returns the name of process pid and the CPU time (user + system) it has used.
func procCPU(pid int) (string, time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", 0, err
	}
	return parseStat(b)
}

// parseStat reads the command name, utime and stime (fields 2, 14 and 15) of a
// /proc/PID/stat line. The name is in parentheses and may itself hold spaces and
// parentheses, so the fields after it are counted from its last ')'.
func parseStat(b []byte) (string, time.Duration, error) {
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || end < open {
		return "", 0, errors.New("malformed /proc stat")
	}
	name := string(b[open+1 : end])
	f := strings.Fields(string(b[end+1:])) // f[0] is field 3 (state)
	if len(f) < 13 {
		return "", 0, errors.New("short /proc stat")
	}
	var ticks uint64
	for _, s := range f[11:13] { // utime, stime
		n, err := strconv.ParseUint(s, 10, 63)
		if err != nil {
			return "", 0, fmt.Errorf("malformed /proc stat: %w", err)
		}
		ticks += n
	}
	if ticks > 1<<40 {
		return "", 0, errors.New("implausible /proc stat")
	}
	return name, time.Duration(ticks) * time.Second / userHZ, nil
}

// peers returns the processes other than this one that hold an established TCP connection
// to port on this machine: the bots talking to the fake Bot API server. It reads
// /proc/net/tcp{,6} for the sockets and /proc/PID/fd for their owners; processes it may not
// inspect are left out.
func peers(port int) ([]int, error) {
	inodes := map[string]bool{}
	found := false
	for _, file := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(file)
		if err != nil {
			continue
		}
		found = true
		for ino := range connectedTo(f, port) {
			inodes[ino] = true
		}
		f.Close()
	}
	if !found {
		return nil, errors.New("no /proc/net/tcp: not Linux?")
	}
	self := os.Getpid()
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	var out []int
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil || pid == self {
			continue
		}
		fds, err := os.ReadDir(filepath.Join("/proc", d.Name(), "fd"))
		if err != nil {
			continue
		}
		for _, fd := range fds {
			link, err := os.Readlink(filepath.Join("/proc", d.Name(), "fd", fd.Name()))
			if ino, ok := strings.CutPrefix(link, "socket:["); err == nil && ok && inodes[strings.TrimSuffix(ino, "]")] {
				out = append(out, pid)
				break
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

// connectedTo returns the socket inodes of the established connections in a /proc/net/tcp
// table whose remote end is port.
func connectedTo(f *os.File, port int) map[string]bool {
	out := map[string]bool{}
	want := fmt.Sprintf(":%04X", port)
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	for sc.Scan() {
		// sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
		fl := strings.Fields(sc.Text())
		if len(fl) < 10 || fl[3] != "01" || !strings.HasSuffix(fl[2], want) {
			continue
		}
		out[fl[9]] = true
	}
	return out
}

// parsePIDs reads a comma-separated list of process ids.
func parsePIDs(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		pid, err := strconv.Atoi(f)
		if err != nil || pid <= 0 {
			return nil, fmt.Errorf("-pids: %q is not a process id", f)
		}
		out = append(out, pid)
	}
	return out, nil
}
