//! The plain stage body decoded outside Python (`tape_rest`): exactly the
//! shape `{"files": [{"path": ...}]}` gives its paths; every other body,
//! valid or not, is left to the service's own decoder.

use seekplan_core::tape_rest::plain_stage_paths;

fn paths(body: &str) -> Option<Vec<String>> {
    plain_stage_paths(body.as_bytes()).map(|v| v.into_iter().map(|p| p.into_owned()).collect())
}

#[test]
fn the_plain_shape_gives_its_paths_in_order() {
    let got = paths(r#" {"files": [{"path": "/a"}, {"path": "/b\n\u00e9"}]} "#);
    assert_eq!(got, Some(vec!["/a".to_string(), "/b\n\u{e9}".to_string()]));
}

#[test]
fn anything_else_is_left_to_the_service() {
    for body in [
        r#"{"files": []}"#,
        r#"{"files": [{"path": "/a", "diskLifetime": "PT1H"}]}"#,
        r#"{"files": [{"path": "/a", "targetedMetadata": null}]}"#,
        r#"{"files": [{"path": "/a"}], "x": 1}"#,
        r#"{"files": [{"path": "/a", "path": "/b"}]}"#,
        r#"{"files": [{"path": "/a"}], "files": [{"path": "/b"}]}"#,
        r#"{"files": [{"path": null}]}"#,
        r#"{"files": [{"path": "\ud800"}]}"#,
        r#"{"files": [{"path": "/a"}]} x"#,
        r#"["/a"]"#,
        "\u{feff}{\"files\": [{\"path\": \"/a\"}]}",
    ] {
        assert_eq!(paths(body), None, "{body}");
    }
    assert_eq!(
        plain_stage_paths(b"{\"files\": [{\"path\": \"\xff\"}]}"),
        None
    );
}
