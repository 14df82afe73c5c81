//! Capabilities: the semantic tags that context queries select on.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A semantic tag on a body. The known caps are the vocabulary the runtime reasons with
/// (spine, feet, graspers, …); any other string is kept verbatim so studios can add their own
/// tags and query them without a code change.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cap {
    /// The animation root (at most one body); without it the runtime picks one.
    Root,
    /// Part of the trunk: the chain the limbs hang from.
    Spine,
    /// A segment of a limb.
    Limb,
    /// A foot: the gait plants it, and a limb ending in one is a leg.
    Foot,
    /// A hand, claw or tentacle tip that holds things.
    Grasper,
    /// A mouth (on a head, or anywhere).
    Mouth,
    /// An eye.
    Eye,
    /// An ear.
    Ear,
    /// A head.
    Head,
    /// A wing segment.
    Wing,
    /// A tail segment.
    Tail,
    /// A fin.
    Fin,
    /// A horn, spike or other weapon.
    Weapon,
    /// A studio's own tag, kept verbatim.
    Other(String),
}

impl Cap {
    /// Every cap the runtime knows by name, in the order tools list them.
    pub const KNOWN: [Cap; 13] = [
        Cap::Root,
        Cap::Spine,
        Cap::Limb,
        Cap::Foot,
        Cap::Grasper,
        Cap::Mouth,
        Cap::Eye,
        Cap::Ear,
        Cap::Head,
        Cap::Wing,
        Cap::Tail,
        Cap::Fin,
        Cap::Weapon,
    ];

    /// The name files and queries use (`grasper`, or the studio's own tag).
    pub fn as_str(&self) -> &str {
        match self {
            Cap::Root => "root",
            Cap::Spine => "spine",
            Cap::Limb => "limb",
            Cap::Foot => "foot",
            Cap::Grasper => "grasper",
            Cap::Mouth => "mouth",
            Cap::Eye => "eye",
            Cap::Ear => "ear",
            Cap::Head => "head",
            Cap::Wing => "wing",
            Cap::Tail => "tail",
            Cap::Fin => "fin",
            Cap::Weapon => "weapon",
            Cap::Other(s) => s,
        }
    }

    /// Parses a cap name. Names are case-insensitive and trimmed so that hand-written files
    /// and glTF extras (`"Grasper"`) mean the same thing; free strings become [`Cap::Other`].
    pub fn parse(name: &str) -> Cap {
        let lower = name.trim().to_ascii_lowercase();
        Cap::KNOWN
            .iter()
            .find(|c| c.as_str() == lower)
            .cloned()
            .unwrap_or(Cap::Other(lower))
    }
}

impl fmt::Display for Cap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Cap {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Cap {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        if s.trim().is_empty() {
            return Err(serde::de::Error::custom("a cap name must not be empty"));
        }
        Ok(Cap::parse(&s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_caps_round_trip_and_free_strings_are_kept() {
        for cap in Cap::KNOWN {
            assert_eq!(Cap::parse(cap.as_str()), cap);
        }
        assert_eq!(Cap::parse(" Grasper "), Cap::Grasper);
        assert_eq!(Cap::parse("antenna"), Cap::Other("antenna".into()));
        let json = serde_json::to_string(&vec![Cap::Foot, Cap::Other("horn".into())]).unwrap();
        assert_eq!(json, r#"["foot","horn"]"#);
        assert!(serde_json::from_str::<Cap>(r#""  ""#).is_err());
    }
}
