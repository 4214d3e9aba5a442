//! The epoch palette in static/style.css is told apart with colour-vision deficiencies (issue #11, WCAG
//! 1.4.1): adjacent epochs (including the wrap from the last colour back to the first, as epoch 8 reuses
//! epoch 0's) differ by a CIEDE2000 distance of at least 10 under simulated protanopia, deuteranopia and
//! tritanopia (Machado, Oliveira and Fernandes 2009, severity 1), and every cell's label reads on its colour.
#![cfg(not(target_arch = "wasm32"))]

type Rgb = [f64; 3];
type Lab = [f64; 3];

const MATRICES: [(&str, [[f64; 3]; 3]); 4] = [
    ("normal vision", [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]),
    ("protanopia", [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]),
    (
        "deuteranopia",
        [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
    ),
    ("tritanopia", [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]]),
];

/// `--epoch-0` … `--epoch-7` of the light theme's `:root`, in order.
fn palette() -> Vec<(String, Rgb)> {
    let css = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/static/style.css")).unwrap();
    (0..8)
        .map(|i| {
            let key = format!("--epoch-{i}: #");
            let at = css.find(&key).unwrap_or_else(|| panic!("no {key} in style.css")) + key.len();
            let hex = &css[at..at + 6];
            (format!("#{hex}"), linear(hex))
        })
        .collect()
}

fn linear(hex: &str) -> Rgb {
    let channel = |i: usize| {
        let c = f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap()) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    [channel(0), channel(2), channel(4)]
}

fn simulate(m: &[[f64; 3]; 3], c: Rgb) -> Rgb {
    let row = |r: usize| (m[r][0] * c[0] + m[r][1] * c[1] + m[r][2] * c[2]).clamp(0.0, 1.0);
    [row(0), row(1), row(2)]
}

fn luminance(c: Rgb) -> f64 {
    0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
}

/// Linear sRGB to CIELAB (D65).
fn lab(c: Rgb) -> Lab {
    let x = (0.4124 * c[0] + 0.3576 * c[1] + 0.1805 * c[2]) / 0.95047;
    let y = luminance(c);
    let z = (0.0193 * c[0] + 0.1192 * c[1] + 0.9505 * c[2]) / 1.08883;
    let f = |t: f64| if t > 216.0 / 24389.0 { t.cbrt() } else { (24389.0 / 27.0 * t + 16.0) / 116.0 };
    [116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z))]
}

fn hue(a: f64, b: f64) -> f64 {
    b.atan2(a).to_degrees().rem_euclid(360.0)
}

/// The mean hue and the hue difference of two colours, as CIEDE2000 defines them.
fn hues(h1: f64, h2: f64, chromatic: bool) -> (f64, f64) {
    if !chromatic {
        return (h1 + h2, 0.0);
    }
    let d = h2 - h1;
    let dh = if d > 180.0 {
        d - 360.0
    } else if d < -180.0 {
        d + 360.0
    } else {
        d
    };
    let mean = if (h1 - h2).abs() <= 180.0 {
        (h1 + h2) / 2.0
    } else if h1 + h2 < 360.0 {
        (h1 + h2 + 360.0) / 2.0
    } else {
        (h1 + h2 - 360.0) / 2.0
    };
    (mean, dh)
}

/// CIEDE2000 (Sharma, Wu and Dalal 2005).
fn ciede2000(p: Lab, q: Lab) -> f64 {
    let seventh = |c: f64| (c.powi(7) / (c.powi(7) + 25f64.powi(7))).sqrt();
    let g = 0.5 * (1.0 - seventh((p[1].hypot(p[2]) + q[1].hypot(q[2])) / 2.0));
    let (a1, a2) = ((1.0 + g) * p[1], (1.0 + g) * q[1]);
    let (c1, c2) = (a1.hypot(p[2]), a2.hypot(q[2]));
    let (hb, dh) = hues(hue(a1, p[2]), hue(a2, q[2]), c1 * c2 != 0.0);
    let (d_l, d_c) = (q[0] - p[0], c2 - c1);
    let d_h = 2.0 * (c1 * c2).sqrt() * (dh / 2.0).to_radians().sin();
    let (lb, cb) = ((p[0] + q[0]) / 2.0, (c1 + c2) / 2.0);
    let cos = |deg: f64| deg.to_radians().cos();
    let t =
        1.0 - 0.17 * cos(hb - 30.0) + 0.24 * cos(2.0 * hb) + 0.32 * cos(3.0 * hb + 6.0) - 0.20 * cos(4.0 * hb - 63.0);
    let s_l = 1.0 + 0.015 * (lb - 50.0).powi(2) / (20.0 + (lb - 50.0).powi(2)).sqrt();
    let (s_c, s_h) = (1.0 + 0.045 * cb, 1.0 + 0.015 * cb * t);
    let r_t = -(2.0 * 30.0 * (-((hb - 275.0) / 25.0).powi(2)).exp()).to_radians().sin() * 2.0 * seventh(cb);
    ((d_l / s_l).powi(2) + (d_c / s_c).powi(2) + (d_h / s_h).powi(2) + r_t * (d_c / s_c) * (d_h / s_h)).sqrt()
}

#[test]
fn ciede2000_matches_the_published_test_pairs() {
    // Sharma, Wu and Dalal's table 1, pairs 1 and 17.
    let close = |a: f64, b: f64| (a - b).abs() < 1e-3;
    assert!(close(ciede2000([50.0, 2.6772, -79.7751], [50.0, 0.0, -82.7485]), 2.0425));
    assert!(close(ciede2000([50.0, 2.5, 0.0], [73.0, 25.0, -18.0]), 27.1492));
}

#[test]
fn adjacent_epochs_differ_under_every_colour_vision_deficiency() {
    let colours = palette();
    let mut close = Vec::new();
    for (vision, m) in &MATRICES {
        for i in 0..colours.len() {
            let (a, b) = (&colours[i], &colours[(i + 1) % colours.len()]);
            let d = ciede2000(lab(simulate(m, a.1)), lab(simulate(m, b.1)));
            if d < 10.0 {
                close.push(format!("{vision}: epochs {i} ({}) and {} ({}) differ by {d:.1}", a.0, (i + 1) % 8, b.0));
            }
        }
    }
    assert!(close.is_empty(), "{close:#?}");
}

#[test]
fn every_cell_label_reads_on_its_epoch_colour() {
    // Labels are #111 on every colour but epoch 4's dark blue, where they are white (style.css).
    for (i, (hex, c)) in palette().iter().enumerate() {
        let text = if i == 4 { 1.0 } else { luminance(linear("111111")) };
        let (hi, lo) = (luminance(*c).max(text), luminance(*c).min(text));
        let ratio = (hi + 0.05) / (lo + 0.05);
        assert!(ratio >= 4.5, "epoch {i} ({hex}): {ratio:.2}:1");
    }
}
