package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestLoadPicturesSmoke runs a tiny picture flood on an in-process bot: the addresses come from
// inline 16×16 games, the clients fetch them while two players play, and the report gives
// the fetches and the memory.
func TestLoadPicturesSmoke(t *testing.T) {
	keepGOMAXPROCS(t)
	_, res, out, logs := runLoad(t, "-chats", "2", "-think", "20ms", "-duration", "5s", "-pictures", "2", "-picture-addrs", "12")
	if res.ErrorCount() != 0 {
		t.Errorf("errors: %v\nlog:\n%s", res.Errors, logs.String())
	}
	p := res.Pictures
	if p == nil || !strings.Contains(out, "pictures: 2 clients over 12 addresses") || !strings.Contains(out, "memory of this process") {
		t.Fatalf("no picture figures:\n%s", out)
	}
	if p.Addrs != 12 || p.Games != 1 || p.Status[http.StatusOK] == 0 || p.OK.N != int(p.Status[http.StatusOK]) {
		t.Errorf("picture figures %+v", *p)
	}
	if len(p.Memory) != 1 || p.Memory[0].Start <= 0 || p.Memory[0].Peak < p.Memory[0].Start || p.Memory[0].HighWaterRSS <= 0 {
		t.Errorf("memory figures %+v", p.Memory)
	}
	if res.PeopleMoves == 0 {
		t.Error("the players did not move beside the picture flood")
	}
}

func TestParseFlagsPictures(t *testing.T) {
	cfg, err := parseFlags([]string{"-pictures", "16"}, io.Discard)
	if err != nil || cfg.Pictures != 16 || cfg.PicAddrs != defaultPictureAddrs {
		t.Errorf("-pictures 16: %+v, %v", cfg, err)
	}
	for _, args := range [][]string{
		{"-pictures", "-1"}, {"-pictures", "257"}, {"-pictures", "4", "-picture-addrs", "0"},
		{"-pictures", "4", "-limits"}, {"-pictures", "4", "-external"},
	} {
		if _, err := parseFlags(args, io.Discard); err == nil {
			t.Errorf("%v: accepted", args)
		}
	}
}

func TestParseStatusMemory(t *testing.T) {
	status := "Name:\treversibot\nVmPeak:\t 1000 kB\nVmHWM:\t  758000 kB\nVmRSS:\t  116000 kB\nThreads:\t9\n"
	rss, hwm, err := parseStatusMemory([]byte(status))
	if err != nil || rss != 116000<<10 || hwm != 758000<<10 {
		t.Errorf("parseStatusMemory = %d, %d, %v", rss, hwm, err)
	}
	for _, bad := range []string{"", "VmRSS:\t12 kB\n", "VmRSS:\t12 MB\nVmHWM:\t1 kB\n", "VmRSS:\tx kB\nVmHWM:\t1 kB\n"} {
		if _, _, err := parseStatusMemory([]byte(bad)); err == nil {
			t.Errorf("parseStatusMemory(%q) accepted", bad)
		}
	}
	if rss, hwm, err := procMemory(0); err != nil || rss <= 0 || hwm < rss {
		t.Errorf("this process: RSS %d, HWM %d, %v", rss, hwm, err)
	}
}
