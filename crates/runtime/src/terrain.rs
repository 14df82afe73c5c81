//! The ground under a character: a height function over the world's x and z.

use glam::Vec3;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Terrain as a height function. The CLI writes it as `flat`, `slope:DEG` (rising toward
/// world +Z by DEG degrees) or `waves` / `waves:AMPLITUDE:WAVELENGTH` (metres).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Terrain {
    /// Height 0 everywhere.
    #[default]
    Flat,
    /// A plane rising toward world +Z.
    Slope {
        /// The rise, in degrees.
        degrees: f32,
    },
    /// Rolling waves across both axes.
    Waves {
        /// Half the height from trough to crest, in metres.
        amplitude: f32,
        /// Crest to crest, in metres.
        wavelength: f32,
    },
}

impl Terrain {
    /// Ground height at world (x, z).
    pub fn height(&self, x: f32, z: f32) -> f32 {
        match *self {
            Terrain::Flat => 0.0,
            Terrain::Slope { degrees } => z * degrees.to_radians().tan(),
            Terrain::Waves {
                amplitude,
                wavelength,
            } => {
                let k = std::f32::consts::TAU / wavelength;
                amplitude * (0.5 * (k * x).sin() + 0.5 * (k * z).cos())
            }
        }
    }

    /// The upward unit normal at world (x, z).
    pub fn normal(&self, x: f32, z: f32) -> Vec3 {
        let e = 0.01;
        let dx = (self.height(x + e, z) - self.height(x - e, z)) / (2.0 * e);
        let dz = (self.height(x, z + e) - self.height(x, z - e)) / (2.0 * e);
        Vec3::new(-dx, 1.0, -dz).normalize_or_zero()
    }
}

/// A terrain written on a command line that cannot be read.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("terrain '{spec}': {why} (expected flat, slope:DEG, or waves[:AMPLITUDE:WAVELENGTH])")]
pub struct TerrainError {
    spec: String,
    why: &'static str,
}

impl FromStr for Terrain {
    type Err = TerrainError;

    fn from_str(spec: &str) -> Result<Self, Self::Err> {
        let err = |why| TerrainError {
            spec: spec.to_string(),
            why,
        };
        let parts: Vec<&str> = spec.trim().split(':').collect();
        let num = |s: &str| s.trim().parse::<f32>().ok().filter(|v| v.is_finite());
        match parts.as_slice() {
            ["flat"] => Ok(Terrain::Flat),
            ["slope", d] => match num(d) {
                Some(degrees) if degrees.abs() < 60.0 => Ok(Terrain::Slope { degrees }),
                Some(_) => Err(err(
                    "a slope must be steeper than -60° and shallower than 60°",
                )),
                None => Err(err("the slope is not a number of degrees")),
            },
            ["waves"] => Ok(Terrain::Waves {
                amplitude: 0.05,
                wavelength: 2.0,
            }),
            ["waves", a, w] => match (num(a), num(w)) {
                (Some(amplitude), Some(wavelength)) if amplitude >= 0.0 && wavelength > 0.0 => {
                    Ok(Terrain::Waves {
                        amplitude,
                        wavelength,
                    })
                }
                _ => Err(err("waves need an amplitude ≥ 0 and a wavelength > 0")),
            },
            _ => Err(err("unknown terrain")),
        }
    }
}

impl fmt::Display for Terrain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Terrain::Flat => write!(f, "flat"),
            Terrain::Slope { degrees } => write!(f, "slope:{degrees}"),
            Terrain::Waves {
                amplitude,
                wavelength,
            } => write!(f, "waves:{amplitude}:{wavelength}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_print_back() {
        for s in ["flat", "slope:10", "waves:0.1:3"] {
            let t: Terrain = s.parse().unwrap();
            assert_eq!(t.to_string(), s);
        }
        assert_eq!(
            "waves".parse::<Terrain>().unwrap().to_string(),
            "waves:0.05:2"
        );
        for bad in [
            "hills",
            "slope:x",
            "slope:80",
            "waves:1",
            "waves:-1:2",
            "slope:nan",
        ] {
            assert!(bad.parse::<Terrain>().is_err(), "{bad}");
        }
    }

    #[test]
    fn slope_rises_along_z_and_normals_tilt_back() {
        let t = Terrain::Slope { degrees: 45.0 };
        assert!((t.height(3.0, 2.0) - 2.0).abs() < 1e-5);
        let n = t.normal(0.0, 0.0);
        assert!((n - Vec3::new(0.0, 1.0, -1.0).normalize()).length() < 1e-3);
        assert_eq!(Terrain::Flat.normal(1.0, 2.0), Vec3::Y);
    }
}
