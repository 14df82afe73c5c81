//! Reading accessors with every offset, stride and count checked against the buffer, so a
//! damaged file is an error naming the accessor rather than a panic or a huge allocation.

use super::source::Source;
use crate::LoadError;
use gltf::accessor::{DataType, Dimensions};

/// No accessor we read may hold more elements than this (16 M vertices is far beyond a rig).
const MAX_ELEMENTS: usize = 1 << 24;

/// An accessor without a bufferView is all zeros; a real file uses that for a few elements.
const MAX_ZERO_ELEMENTS: usize = 1 << 16;

/// What a zero element reads from: enough bytes for the widest element (MAT4 of f32).
static ZEROS: [u8; 64] = [0; 64];

fn dims_of(n: usize) -> Dimensions {
    match n {
        1 => Dimensions::Scalar,
        2 => Dimensions::Vec2,
        3 => Dimensions::Vec3,
        4 => Dimensions::Vec4,
        _ => Dimensions::Mat4,
    }
}

/// Reads `N` components per element as floats (normalized integers mapped to 0..1 or -1..1).
/// `N = 16` reads MAT4 column-major.
pub(super) fn read_floats<const N: usize>(
    src: &Source,
    accessor: &gltf::Accessor,
) -> Result<Vec<[f32; N]>, LoadError> {
    let layout = Layout::of(src, accessor, N)?;
    let field = format!("accessors[{}]", accessor.index());
    let normalized = accessor.normalized();
    let mut out = Vec::with_capacity(layout.count);
    for i in 0..layout.count {
        let mut v = [0.0f32; N];
        for (c, slot) in v.iter_mut().enumerate() {
            let value = layout.component(i, c);
            *slot = match (layout.kind, normalized) {
                (DataType::F32, _) | (_, false) => value as f32,
                (DataType::U8, true) => (value / 255.0) as f32,
                (DataType::U16, true) => (value / 65535.0) as f32,
                (DataType::I8, true) => (value / 127.0).max(-1.0) as f32,
                (DataType::I16, true) => (value / 32767.0).max(-1.0) as f32,
                (DataType::U32, true) => (value / f64::from(u32::MAX)) as f32,
            };
        }
        if let Some(bad) = v.iter().find(|x| !x.is_finite()) {
            return Err(src.field_error(
                field,
                format!("element {i} holds {bad}, not a finite number"),
            ));
        }
        // Positions, weights and matrices alike: past the working range a mesh skins to
        // infinity.
        if let Some(bad) = v
            .iter()
            .find(|x| x.abs() > anymorph_runtime::math::WORKING_RANGE)
        {
            return Err(src.field_error(
                field,
                format!("element {i} holds {bad}, outside the working range of ±1e6"),
            ));
        }
        out.push(v);
    }
    Ok(out)
}

/// Reads `N` integer components per element (indices, joint numbers).
pub(super) fn read_uints<const N: usize>(
    src: &Source,
    accessor: &gltf::Accessor,
) -> Result<Vec<[u32; N]>, LoadError> {
    let field = format!("accessors[{}]", accessor.index());
    if matches!(
        accessor.data_type(),
        DataType::F32 | DataType::I8 | DataType::I16
    ) || accessor.normalized()
    {
        return Err(src.field_error(
            format!("{field}.componentType"),
            "expected unsigned integers",
        ));
    }
    let layout = Layout::of(src, accessor, N)?;
    let mut out = Vec::with_capacity(layout.count);
    for i in 0..layout.count {
        let mut v = [0u32; N];
        for (c, slot) in v.iter_mut().enumerate() {
            *slot = layout.component(i, c) as u32;
        }
        out.push(v);
    }
    Ok(out)
}

/// Where an accessor's elements are, checked once so reading them cannot go out of bounds.
struct Layout<'a> {
    bytes: &'a [u8],
    kind: DataType,
    count: usize,
    start: usize,
    stride: usize,
}

impl<'a> Layout<'a> {
    fn of(
        src: &'a Source,
        accessor: &gltf::Accessor,
        components: usize,
    ) -> Result<Self, LoadError> {
        let field = format!("accessors[{}]", accessor.index());
        let err = |f: &str, m: String| src.field_error(format!("{field}{f}"), m);
        if accessor.dimensions() != dims_of(components) {
            return Err(err(
                ".type",
                format!(
                    "expected {:?} elements, found {:?}",
                    dims_of(components),
                    accessor.dimensions()
                ),
            ));
        }
        if accessor.sparse().is_some() {
            return Err(err(
                ".sparse",
                "sparse accessors are not supported here".into(),
            ));
        }
        let count = accessor.count();
        let kind = accessor.data_type();
        let size = kind.size();
        let element = size * components;
        let Some(view) = accessor.view() else {
            // No buffer view: every element is zero (glTF 3.6.2.3). Nothing backs the count,
            // so it is held to what a real file would use.
            if count > MAX_ZERO_ELEMENTS {
                return Err(err(
                    ".count",
                    format!("{count} zero elements without a bufferView is over the limit"),
                ));
            }
            return Ok(Layout {
                bytes: &ZEROS,
                kind,
                count,
                start: 0,
                stride: 0,
            });
        };
        if count > MAX_ELEMENTS {
            return Err(err(
                ".count",
                format!("{count} elements is over the limit of {MAX_ELEMENTS}"),
            ));
        }
        let stride = view.stride().unwrap_or(element);
        if stride < element {
            return Err(err(
                "",
                format!("byteStride {stride} is smaller than an element ({element} bytes)"),
            ));
        }
        let buffer = src
            .buffers
            .get(view.buffer().index())
            .ok_or_else(|| err("", "its buffer was not loaded".into()))?;
        let view_end = view
            .offset()
            .checked_add(view.length())
            .filter(|&e| e <= buffer.len())
            .ok_or_else(|| {
                src.field_error(
                    format!("bufferViews[{}]", view.index()),
                    format!(
                        "bytes {}..+{} run past the end of buffer {} ({} bytes)",
                        view.offset(),
                        view.length(),
                        view.buffer().index(),
                        buffer.len()
                    ),
                )
            })?;
        let start = view.offset().checked_add(accessor.offset());
        let needed = match count {
            0 => Some(0),
            n => stride
                .checked_mul(n - 1)
                .and_then(|x| x.checked_add(element)),
        };
        let end = start.zip(needed).and_then(|(s, n)| s.checked_add(n));
        let (Some(start), Some(end)) = (start, end) else {
            return Err(err(".count", "the element range overflows".into()));
        };
        if end > view_end {
            return Err(err(
                ".count",
                format!(
                    "{count} elements need bytes {start}..{end}, past the end of bufferViews[{}] at {view_end}",
                    view.index()
                ),
            ));
        }
        Ok(Layout {
            bytes: buffer,
            kind,
            count,
            start,
            stride,
        })
    }

    /// Component `c` of element `e`; both are in range by construction.
    fn component(&self, e: usize, c: usize) -> f64 {
        let size = self.kind.size();
        let at = self.start + e * self.stride + c * size;
        let Some(b) = self.bytes.get(at..at + size) else {
            return 0.0;
        };
        match self.kind {
            DataType::I8 => f64::from(b[0] as i8),
            DataType::U8 => f64::from(b[0]),
            DataType::I16 => f64::from(i16::from_le_bytes([b[0], b[1]])),
            DataType::U16 => f64::from(u16::from_le_bytes([b[0], b[1]])),
            DataType::U32 => f64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            DataType::F32 => f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        }
    }
}
