// Lit, shaded bodies. One instance per body; the mesh is a unit cube (boxes) or a unit
// sphere split at its equator (spheres and capsules: each hemisphere is pushed out along
// local Y by the capsule's half segment).

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    // +1 on the upper hemisphere, -1 on the lower, 0 on the cube.
    @location(2) hemisphere: f32,
};

struct InstanceIn {
    // xyz: centre in world space.
    @location(3) position: vec4<f32>,
    // Rotation quaternion, world from body.
    @location(4) rotation: vec4<f32>,
    // xyz: scale of the unit mesh; w: half length of a capsule's straight segment.
    @location(5) scale_segment: vec4<f32>,
    // rgb: linear base colour; a: 0 plain, 1 hovered, 2 selected, 3 both.
    @location(6) color_highlight: vec4<f32>,
};

struct BodyOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) color: vec3<f32>,
    @location(3) @interpolate(flat) highlight: u32,
};

@vertex
fn vs_body(v: VertexIn, i: InstanceIn) -> BodyOut {
    let local = v.position * i.scale_segment.xyz + vec3<f32>(0.0, v.hemisphere * i.scale_segment.w, 0.0);
    let world = i.position.xyz + rotate(i.rotation, local);
    // Cube normals are axis aligned and sphere scales are uniform, so scaling never bends them.
    let normal = rotate(i.rotation, v.normal);
    var out: BodyOut;
    out.clip = frame.clip_from_world * vec4<f32>(world, 1.0);
    out.world = world;
    out.normal = normal;
    out.color = i.color_highlight.rgb;
    out.highlight = u32(i.color_highlight.a + 0.5);
    return out;
}

const SELECTED: vec3<f32> = vec3<f32>(1.0, 0.55, 0.08);
const HOVERED: vec3<f32> = vec3<f32>(0.55, 0.8, 1.0);

@fragment
fn fs_body(in: BodyOut) -> @location(0) vec4<f32> {
    let n = normalize(in.normal);
    let to_eye = normalize(frame.eye.xyz - in.world);
    var color = shade(in.color, n, in.world);
    let rim = pow(1.0 - max(dot(n, to_eye), 0.0), 2.5);
    if ((in.highlight & 2u) != 0u) {
        color = mix(color, SELECTED, 0.35) + SELECTED * rim * 0.9;
    }
    if ((in.highlight & 1u) != 0u) {
        color = color * 1.15 + HOVERED * rim * 0.8;
    }
    return vec4<f32>(color, 1.0);
}
