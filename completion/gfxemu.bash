# bash completion for gfxemu (installed by `make install` as
# PREFIX/share/bash-completion/completions/gfxemu).  Completes commands, options, code objects,
# and the kernel names of the code object given (asked from `gfxemu info`).
_gfxemu() {
    local cur prev cmd
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD - 1]}"
    cmd="${COMP_WORDS[1]}"
    local commands="disasm run debug info exec help"
    local run_opts="--grid --global-size --block --arg --stats --threads --max-insts --dynamic-lds
        --fault-report --trace --trace-limit --trace-wg --trace-wave --trace-pc --timeline
        --profile --profile-top --counters --counters-out --att --att-target-cu
        --att-shader-engine-mask --att-simd-select --att-workgroups --help"

    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
        return
    fi
    case "$cmd" in
    help)
        [ "$COMP_CWORD" -eq 2 ] && COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        return
        ;;
    disasm)
        case "$prev" in
        --arch) COMPREPLY=($(compgen -W "gfx950 gfx942" -- "$cur")); return ;;
        esac
        if [[ "$cur" == -* ]]; then
            COMPREPLY=($(compgen -W "--arch --raw --help" -- "$cur"))
        else
            COMPREPLY=($(compgen -f -- "$cur"))
        fi
        return
        ;;
    info)
        case "$prev" in
        --block | --dynamic-lds) return ;;
        esac
        if [[ "$cur" == -* ]]; then
            COMPREPLY=($(compgen -W "--json --block --dynamic-lds --help" -- "$cur"))
        else
            COMPREPLY=($(compgen -f -X '!*.co' -- "$cur") $(compgen -d -- "$cur"))
        fi
        return
        ;;
    exec)
        case "$prev" in
        --arch) COMPREPLY=($(compgen -W "gfx950 gfx942 gfx90a" -- "$cur")); return ;;
        --devices | --threads | --vram) return ;;
        esac
        if [[ "$cur" == -* ]]; then
            COMPREPLY=($(compgen -W "--arch --devices --threads --memcheck --vram --stats --help --" -- "$cur"))
        else
            COMPREPLY=($(compgen -c -- "$cur"))
        fi
        return
        ;;
    run | debug) ;;
    *) return ;;
    esac

    case "$prev" in
    --trace | --timeline | --counters-out | --profile) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --att) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --att-target-cu) COMPREPLY=($(compgen -W "$(seq 0 15)" -- "$cur")); return ;;
    --att-shader-engine-mask | --att-simd-select | --att-workgroups) return ;;
    --arg)
        if [[ "$cur" == *:* ]]; then
            # in:PATH, inout:PATH, out:PATH...: complete the file after the kind
            local kind="${cur%%:*}" path="${cur#*:}"
            COMPREPLY=($(compgen -f -- "$path" | sed "s|^|$kind:|"))
            compopt -o nospace 2>/dev/null
        else
            COMPREPLY=($(compgen -W "in: out: inout: zero: i32: u32: i64: u64: f32: f64:" \
                -- "$cur"))
            compopt -o nospace 2>/dev/null
        fi
        return
        ;;
    --grid | --global-size | --block | --threads | --max-insts | --dynamic-lds | --trace-limit | \
        --trace-wg | --trace-wave | --trace-pc | --profile-top)
        return
        ;;
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$run_opts" -- "$cur"))
        return
    fi
    # Positional words: the code object, then one of its kernels.
    local i word co="" npos=0
    for ((i = 2; i < COMP_CWORD; i++)); do
        word="${COMP_WORDS[i]}"
        case "$word" in
        --stats | --fault-report | --profile) ;;
        -*) i=$((i + 1)) ;;
        *)
            npos=$((npos + 1))
            [ "$npos" -eq 1 ] && co="$word"
            ;;
        esac
    done
    if [ "$npos" -eq 0 ]; then
        COMPREPLY=($(compgen -f -X '!*.co' -- "$cur") $(compgen -d -- "$cur"))
    elif [ "$npos" -eq 1 ] && [ -f "$co" ]; then
        local kernels
        kernels=$("${COMP_WORDS[0]}" info "$co" 2>/dev/null | sed -n 's/^kernel \([^ ]*\) .*/\1/p')
        COMPREPLY=($(compgen -W "$kernels" -- "$cur"))
    fi
}
complete -F _gfxemu gfxemu
