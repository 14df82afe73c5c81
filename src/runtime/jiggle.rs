//! Jiggles (paper 4.4): passive, highly damped secondary motion on the sub-trees no goal
//! touches.

/// Jiggle tuning.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct JiggleTuning {
    pub enabled: bool,
}
