//! The "data-mine animation size" report of the blending article: how many bytes and keys
//! each clip and each of its channels puts into an exported package, so the biggest spenders
//! can be found and trimmed (see [`super::key_reduction`]).

use super::Package;
use anymorph_runtime::clip::{Channel, Clip};
use serde::Serialize;

/// Key counts of one channel's curves.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct KeyCounts {
    pub position: usize,
    pub rotation: usize,
    /// Both weight curves together.
    pub weights: usize,
    /// All deform curves together.
    pub deforms: usize,
}

impl KeyCounts {
    pub fn of(channel: &Channel) -> KeyCounts {
        KeyCounts {
            position: channel.position.as_ref().map_or(0, |c| c.len()),
            rotation: channel.rotation.as_ref().map_or(0, |c| c.len()),
            weights: channel.position_weight.as_ref().map_or(0, |c| c.len())
                + channel.rotation_weight.as_ref().map_or(0, |c| c.len()),
            deforms: channel.deforms.values().map(|c| c.len()).sum(),
        }
    }

    pub fn total(&self) -> usize {
        self.position + self.rotation + self.weights + self.deforms
    }
}

/// One channel's share of the package.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChannelSize {
    pub channel: String,
    /// Bytes of the channel as compact JSON.
    pub bytes: usize,
    pub keys: KeyCounts,
}

/// One clip's share: its channels, and the bytes of everything else in it (events, branches).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClipSize {
    pub clip: String,
    /// Bytes of the whole clip as compact JSON.
    pub bytes: usize,
    pub keys: usize,
    pub channels: Vec<ChannelSize>,
}

/// Sizes of every clip and channel of a package, biggest clips first, each clip's channels
/// biggest first.
pub fn size_report(package: &Package) -> Vec<ClipSize> {
    let mut clips: Vec<ClipSize> = package.clips.iter().map(|c| clip_size(c)).collect();
    clips.sort_by(|a, b| b.bytes.cmp(&a.bytes).then(a.clip.cmp(&b.clip)));
    clips
}

fn clip_size(clip: &Clip) -> ClipSize {
    let mut channels: Vec<ChannelSize> = clip
        .channels
        .iter()
        .map(|ch| ChannelSize {
            channel: ch.name.clone(),
            bytes: compact_len(ch),
            keys: KeyCounts::of(ch),
        })
        .collect();
    channels.sort_by(|a, b| b.bytes.cmp(&a.bytes).then(a.channel.cmp(&b.channel)));
    ClipSize {
        clip: clip.name.clone(),
        bytes: compact_len(clip),
        keys: channels.iter().map(|c| c.keys.total()).sum(),
        channels,
    }
}

fn compact_len<T: Serialize>(value: &T) -> usize {
    serde_json::to_string(value).map_or(0, |s| s.len())
}

/// The report as a plain-text table.
pub fn size_report_text(report: &[ClipSize]) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "{:<22} {:<22} {:>8} {:>6} {:>5} {:>5} {:>5} {:>5}\n",
        "clip", "channel", "bytes", "keys", "pos", "rot", "wgt", "def"
    ));
    for clip in report {
        out.push_str(&format!(
            "{:<22} {:<22} {:>8} {:>6}\n",
            clip.clip, "(whole clip)", clip.bytes, clip.keys
        ));
        for ch in &clip.channels {
            let k = &ch.keys;
            out.push_str(&format!(
                "{:<22} {:<22} {:>8} {:>6} {:>5} {:>5} {:>5} {:>5}\n",
                "",
                ch.channel,
                ch.bytes,
                k.total(),
                k.position,
                k.rotation,
                k.weights,
                k.deforms
            ));
        }
    }
    let bytes: usize = report.iter().map(|c| c.bytes).sum();
    let keys: usize = report.iter().map(|c| c.keys).sum();
    out.push_str(&format!(
        "total: {} clips, {bytes} bytes of clips, {keys} keys\n",
        report.len()
    ));
    out
}
