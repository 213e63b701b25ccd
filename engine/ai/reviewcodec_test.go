package ai

import (
	"errors"
	"reflect"
	"testing"

	"github.com/reversibot/reversi/engine"
)

// sampleReview is a hand-built review with every field set.
func sampleReview() GameReview {
	return GameReview{Size: 8, Turning: 1,
		Moves: []MoveReview{
			{Ply: 1, Mover: engine.Black, Played: engine.SquareAt(5, 4), Best: engine.SquareAt(5, 4), PlayedScore: 120, BestScore: 120, Depth: 11},
			{Ply: 2, Mover: engine.White, Played: engine.SquareAt(0, 0), Best: engine.SquareAt(7, 7), PlayedScore: -800, BestScore: 400, Exact: true, Loss: 1200},
		},
		Eval: []int{120, 800}, EvalExact: []bool{false, true}}
}

func TestReviewCodecRoundTrip(t *testing.T) {
	for _, gr := range []GameReview{sampleReview(), {Size: 16, Turning: -1, Moves: []MoveReview{}, Eval: []int{}, EvalExact: []bool{}}} {
		data, err := gr.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var got GameReview
		if err := got.UnmarshalBinary(data); err != nil {
			t.Fatalf("UnmarshalBinary: %v", err)
		}
		if !reflect.DeepEqual(got, gr) {
			t.Fatalf("round trip:\n got %+v\nwant %+v", got, gr)
		}
	}
}

func TestReviewCodecRefuses(t *testing.T) {
	data, err := sampleReview().MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for i := range data { // every truncation
		var gr GameReview
		if err := gr.UnmarshalBinary(data[:i]); !errors.Is(err, ErrReviewData) {
			t.Fatalf("truncated to %d bytes: %v, want ErrReviewData", i, err)
		}
	}
	var gr GameReview
	if err := gr.UnmarshalBinary(append(data, 0)); !errors.Is(err, ErrReviewData) {
		t.Fatalf("trailing byte: %v", err)
	}
	off := sampleReview()
	off.Moves[0].Played = engine.SquareAt(9, 0)
	if _, err := off.MarshalBinary(); !errors.Is(err, ErrReviewData) {
		t.Fatalf("a square off the board encoded: %v", err)
	}
	short := sampleReview()
	short.Eval = short.Eval[:1]
	if _, err := short.MarshalBinary(); !errors.Is(err, ErrReviewData) {
		t.Fatalf("values missing encoded: %v", err)
	}
}

func FuzzReviewUnmarshal(f *testing.F) {
	data, _ := sampleReview().MarshalBinary()
	f.Add(data)
	f.Add([]byte{1, 8, 1, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		var gr GameReview
		if gr.UnmarshalBinary(data) != nil {
			return
		}
		again, err := gr.MarshalBinary()
		if err != nil {
			t.Fatalf("a decoded review does not encode: %v", err)
		}
		var back GameReview
		if err := back.UnmarshalBinary(again); err != nil || !reflect.DeepEqual(back, gr) {
			t.Fatalf("decode(encode(decoded)) = %+v, %v; want %+v", back, err, gr)
		}
	})
}
