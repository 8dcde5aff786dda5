package main

import (
	"fmt"
	"os"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// chart draws time and allocations per call against N, for every
// implementation, with functions that return at once, side by side.
func chart(r *results, path string) error {
	const mode = "immediate"
	timeP := plot.New()
	timeP.Title.Text = "Time per call (mode=immediate; legend on the right)"
	timeP.X.Label.Text = "N (calls fanned out)"
	timeP.Y.Label.Text = "ns per call, log scale"
	timeP.Y.Scale = plot.LogScale{}
	timeP.Y.Tick.Marker = plot.LogTicks{}
	allocP := plot.New()
	allocP.Title.Text = "Allocations per call (mode=immediate)"
	allocP.X.Label.Text = "N (calls fanned out)"
	allocP.Y.Label.Text = "allocations per call"
	for _, p := range []*plot.Plot{timeP, allocP} {
		p.X.Tick.Marker = nTicks(r.ns)
		p.Legend.Top = true
		p.Legend.Left = true
		p.Add(plotter.NewGrid())
	}
	for i, impl := range r.impls {
		var ts, as plotter.XYs
		for _, n := range r.ns {
			s, ok := r.rows[key{impl, n, mode}]
			if !ok {
				continue
			}
			ts = append(ts, plotter.XY{X: float64(n), Y: s.ns})
			as = append(as, plotter.XY{X: float64(n), Y: s.allocs})
		}
		if len(ts) == 0 {
			continue
		}
		for _, pair := range []struct {
			p   *plot.Plot
			xys plotter.XYs
		}{{timeP, ts}, {allocP, as}} {
			l, pts, err := plotter.NewLinePoints(pair.xys)
			if err != nil {
				return err
			}
			l.Color = plotutil.Color(i)
			l.Dashes = plotutil.Dashes(i / 7)
			pts.Color = plotutil.Color(i)
			pts.Shape = plotutil.Shape(i)
			if isOurs(impl) {
				l.Width = vg.Points(2.5)
			}
			pair.p.Add(l, pts)
			if pair.p == allocP {
				pair.p.Legend.Add(impl, l, pts)
			}
		}
	}
	const width, height = 32 * vg.Centimeter, 14 * vg.Centimeter
	c := vgsvg.New(width, height)
	dc := draw.New(c)
	tiles := draw.Tiles{Rows: 1, Cols: 2, PadX: vg.Centimeter, PadY: vg.Centimeter / 2,
		PadLeft: vg.Centimeter / 2, PadRight: vg.Centimeter / 2, PadTop: vg.Centimeter / 2, PadBottom: vg.Centimeter / 2}
	canvases := plot.Align([][]*plot.Plot{{timeP, allocP}}, tiles, dc)
	timeP.Draw(canvases[0][0])
	allocP.Draw(canvases[0][1])
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := c.WriteTo(f); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Close()
}

// nTicks marks exactly the measured N.
type nTicks []int

func (t nTicks) Ticks(min, max float64) []plot.Tick {
	var out []plot.Tick
	for _, n := range t {
		out = append(out, plot.Tick{Value: float64(n), Label: fmt.Sprint(n)})
	}
	return out
}
