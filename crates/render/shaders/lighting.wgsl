// Lighting shared by the body proxies and skinned meshes, so a mesh drawn over its proxies
// reads as the same material under the same lights.

const SKY_AMBIENT: vec3<f32> = vec3<f32>(0.36, 0.39, 0.45);
const GROUND_AMBIENT: vec3<f32> = vec3<f32>(0.16, 0.15, 0.14);

// Key light, cool fill, sky/ground ambient with contact occlusion, and a soft highlight.
// `n` is a unit normal, `world` the shaded point.
fn shade(base: vec3<f32>, n: vec3<f32>, world: vec3<f32>) -> vec3<f32> {
    let to_eye = normalize(frame.eye.xyz - world);
    let l = normalize(frame.light_dir.xyz);
    let key = max(dot(n, l), 0.0);
    // A cool fill from the opposite side keeps the unlit half readable.
    let fill_dir = normalize(vec3<f32>(-l.x, 0.4, -l.z));
    let fill = max(dot(n, fill_dir), 0.0) * 0.25;
    let ambient = mix(GROUND_AMBIENT, SKY_AMBIENT, n.y * 0.5 + 0.5);
    // Darken what is close to the ground: a cheap contact occlusion.
    let above = world.y - frame.ground.x;
    let occlusion = mix(0.6, 1.0, smoothstep(0.0, 0.3, above));
    let half_vec = normalize(l + to_eye);
    let spec = pow(max(dot(n, half_vec), 0.0), 40.0) * 0.18 * key;
    return base * (ambient * occlusion + vec3<f32>(1.0, 0.97, 0.9) * key * 0.85 + fill) + spec;
}
